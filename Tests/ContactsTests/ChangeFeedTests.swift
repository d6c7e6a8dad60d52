import TandemBasics
import TandemTesting
import Testing

@testable import Contacts

@Suite struct ChangeDebouncerTests {
    typealias Instant = UnixMillis
    func at(_ ms: Int64) -> Instant { UnixMillis(ms) }

    @Test func aBatchIsDueAfterTheQuietPeriodFollowingTheLastChange() {
        var debouncer = ChangeDebouncer<Instant>(quietPeriod: .milliseconds(800), maxWait: .seconds(5))
        debouncer.receive([ContactChange(key: Fixture.key(1), isWatched: true)], at: at(0))
        debouncer.receive([ContactChange(key: Fixture.key(2), isWatched: true)], at: at(500))
        #expect(debouncer.flush(at: at(1_299)) == nil)
        #expect(debouncer.flush(at: at(1_300))?.count == 2)
        #expect(!debouncer.hasPending)
    }

    @Test func aSteadyStreamIsCutAtTheMaxWait() {
        var debouncer = ChangeDebouncer<Instant>(quietPeriod: .milliseconds(800), maxWait: .seconds(5))
        var t: Int64 = 0
        while t < 5_000 {
            debouncer.receive([ContactChange(key: Fixture.key(1), isWatched: true)], at: at(t))
            #expect(debouncer.flush(at: at(t)) == nil)
            t += 500
        }
        #expect(debouncer.deadline == at(5_000))
        #expect(debouncer.flush(at: at(5_000)) != nil)
    }

    @Test func theLatestWatchedStateOfAKeyWins() {
        var debouncer = ChangeDebouncer<Instant>(quietPeriod: .milliseconds(10), maxWait: .seconds(1))
        debouncer.receive([ContactChange(key: Fixture.key(1), isWatched: true)], at: at(0))
        debouncer.receive([ContactChange(key: Fixture.key(1), isWatched: false)], at: at(1))
        #expect(debouncer.flush(at: at(100)) == [Fixture.key(1): false])
    }
}

@Suite struct ChangeFeedTests {
    let wallet = Fixture.wallet

    struct NeverParked: Error {}

    /// Yields until the consumer has flushed what was due and waits for new changes (no sleeping).
    func waitUntilParked(_ feed: ContactChangeFeed<ManualClock>) async throws {
        for _ in 0..<1_000_000 {
            if feed.isWaitingForChanges { return }
            await Task.yield()
        }
        throw NeverParked()
    }

    @Test func fiveHundredRapidChangesProduceOneWatchedSetEvent() async throws {
        // Given a watched-set subscriber and 500 changes within the quiet period of each other
        let store = try Fixture.store(replica: "a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let clock = ManualClock()
        let feed = try store.changeFeed(
            wallet: wallet, interest: .watchedSetOnly, quietPeriod: .milliseconds(800),
            maxWait: .seconds(5), clock: clock)
        var iterator = feed.makeAsyncIterator()
        for index in 0..<500 {
            try store.add(Fixture.address(UInt8(index % 50)), wallet: wallet, alias: "n\(index)")
            if index % 100 == 99 { clock.advance(by: .milliseconds(100)) }
        }
        clock.advance(by: .milliseconds(800))
        // Then one event holds all 50 addresses
        let first = try #require(await iterator.next())
        #expect(first.watchedAddresses.count == 50 && first.watchedSetChanged)
        // And the next event is the next watched change, not a leftover of the burst
        try store.setRealtimeUpdatesDisabled(Fixture.address(0), wallet: wallet, true)
        clock.advance(by: .seconds(1))
        let second = try #require(await iterator.next())
        #expect(second.changedKeys == [Fixture.key(0)])
        #expect(second.watchedAddresses.count == 49)
        feed.cancel()
    }

    @Test func aliasOnlyAndLastMessageOnlyChangesNeverWakeAWatchedSetSubscriber() async throws {
        let store = try Fixture.store(replica: "a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let bob = Fixture.address(1)
        try store.add(bob, wallet: wallet)
        let clock = ManualClock()
        let feed = try store.changeFeed(
            wallet: wallet, interest: .watchedSetOnly, quietPeriod: .milliseconds(800),
            maxWait: .seconds(5), clock: clock)
        #expect(feed.currentWatchedAddresses == [bob])
        let consumer = Task { () -> ContactChangeBatch? in
            var iterator = feed.makeAsyncIterator()
            return await iterator.next()
        }
        // Alias, KNS and message changes: a batch flushes but carries no watched-set change
        try store.rename(bob, wallet: wallet, to: "Bob")
        try store.setKNSName(bob, wallet: wallet, to: "bob.kas")
        try store.recordMessage(from: bob, wallet: wallet, at: UnixMillis(Fixture.epoch + 5))
        clock.advance(by: .seconds(1))
        try await waitUntilParked(feed)
        // Then a real watched change, later
        let carol = Fixture.address(2)
        try store.add(carol, wallet: wallet)
        clock.advance(by: .seconds(1))
        let event = try #require(await consumer.value)
        #expect(event.changedKeys == [Fixture.key(2)])
        #expect(event.watchedAddresses == [bob, carol])
        feed.cancel()
    }

    @Test func anAllChangesSubscriberSeesChangedKeysFromMergesToo() async throws {
        let clock = ManualClock(UnixMillis(Fixture.epoch))
        let store = try Fixture.store(replica: "a", clock: clock)
        let other = try Fixture.store(replica: "b", clock: clock)
        try other.add(Fixture.address(7), wallet: wallet, alias: "Remote")
        let manual = ManualClock()
        let feed = try store.changeFeed(
            wallet: wallet, quietPeriod: .milliseconds(800), maxWait: .seconds(5), clock: manual)
        var iterator = feed.makeAsyncIterator()
        try Fixture.sync(other, to: store)
        // A change of another wallet is not this subscriber's business.
        try store.add(Fixture.address(8), wallet: Fixture.address(201))
        manual.advance(by: .seconds(1))
        let event = try #require(await iterator.next())
        #expect(event.changedKeys == [Fixture.key(7)])
        feed.cancel()
    }

    @Test func cancellingAFeedEndsAPendingIteration() async throws {
        let store = try Fixture.store(replica: "a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let feed = try store.changeFeed(
            wallet: wallet, quietPeriod: .milliseconds(800), maxWait: .seconds(5),
            clock: ManualClock())
        feed.cancel()
        var iterator = feed.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }
}

@Suite struct ChangeFeedTimingTests {
    /// Without the max-wait cap the batch would be due only at 5.3 s and `next()` would wait forever.
    @Test(.timeLimit(.minutes(1)))
    func aSteadyStreamOfChangesStillDeliversAtTheMaxWait() async throws {
        let store = try Fixture.store(replica: "a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let clock = ManualClock()
        let feed = try store.changeFeed(
            wallet: Fixture.wallet, quietPeriod: .milliseconds(800), maxWait: .seconds(5),
            clock: clock)
        var iterator = feed.makeAsyncIterator()
        // One change every 500 ms for 5 s: the quiet period never passes
        for index in 0..<10 {
            try store.add(Fixture.address(UInt8(index)), wallet: Fixture.wallet)
            clock.advance(by: .milliseconds(500))
        }
        let batch = try #require(await iterator.next())
        #expect(batch.changedKeys.count == 10)
        feed.cancel()
    }
}
