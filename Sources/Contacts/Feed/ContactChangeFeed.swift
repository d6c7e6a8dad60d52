public import TandemBasics

/// A debounced `AsyncSequence` of ``ContactChangeBatch`` for one wallet (seed 002 "listen to
/// ContactsStore changes (debounced)", timeline-and-contacts §3.3).
///
/// Waiting happens inside `next()` on the injected clock, so there is no background task and a
/// test drives time with TandemTesting's `ManualClock`. Call ``cancel()`` (or drop the feed) to unsubscribe.
/// Continuations are resumed outside the lock.
public final class ContactChangeFeed<C: WallClock>: AsyncSequence, ContactChangeSink, Sendable {
    public typealias Element = ContactChangeBatch

    public let wallet: ContactAddress
    public let interest: ContactChangeInterest
    private let clock: C
    private let state: Locked<State>
    private weak let hub: ContactsChangeHub?

    private struct State {
        var debouncer: ChangeDebouncer<UnixMillis>
        var watched: Set<ContactAddress>
        var waiter: CheckedContinuation<Void, Never>?
        var isCancelled = false
    }

    init(
        wallet: ContactAddress, interest: ContactChangeInterest, initialWatched: Set<ContactAddress>,
        quietPeriod: Duration, maxWait: Duration, clock: C, hub: ContactsChangeHub
    ) {
        self.wallet = wallet
        self.interest = interest
        self.clock = clock
        self.state = Locked(
            State(debouncer: ChangeDebouncer(quietPeriod: quietPeriod, maxWait: maxWait), watched: initialWatched))
        self.hub = hub
    }

    deinit { hub?.remove(self) }

    /// The watched set as of the last delivered batch (or subscription).
    public var currentWatchedAddresses: Set<ContactAddress> { state.withLock { $0.watched } }

    /// True while a consumer is parked in `next()` with nothing pending (tests use it to order
    /// their steps without sleeping).
    var isWaitingForChanges: Bool { state.withLock { $0.waiter != nil } }

    /// Stops the feed: a pending `next()` returns nil.
    public func cancel() {
        let pendingWaiter = state.withLock { state in
            state.isCancelled = true
            defer { state.waiter = nil }
            return state.waiter
        }
        hub?.remove(self)
        pendingWaiter?.resume()
    }

    func receive(_ changes: [ContactChange]) {
        let mine = changes.filter { $0.key.wallet == wallet }
        guard !mine.isEmpty else { return }
        let now = clock.now
        let pendingWaiter = state.withLock { state in
            state.debouncer.receive(mine, at: now)
            defer { state.waiter = nil }
            return state.waiter
        }
        pendingWaiter?.resume()
    }

    /// The next batch this subscriber is interested in; nil after ``cancel()`` or task cancellation.
    func next() async -> ContactChangeBatch? {
        while !Task.isCancelled {
            guard let deadline = await pendingDeadline() else { return nil }
            do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return nil }
            if let batch = flushIfDue() { return batch }
        }
        return nil
    }

    /// Suspends until something is pending; returns its deadline, or nil when cancelled.
    private func pendingDeadline() async -> UnixMillis? {
        while true {
            switch currentState() {
            case .cancelled: return nil
            case .pending(let deadline): return deadline
            case .idle: await withCheckedContinuation { park($0) }
            }
        }
    }

    private enum WaitState {
        case cancelled
        case idle
        case pending(UnixMillis)
    }

    private func currentState() -> WaitState {
        let cancelled = Task.isCancelled
        return state.withLock { state in
            if state.isCancelled || cancelled { return .cancelled }
            return state.debouncer.deadline.map(WaitState.pending) ?? .idle
        }
    }

    /// Keeps the continuation until the next change, unless one arrived since `currentState()`.
    private func park(_ continuation: CheckedContinuation<Void, Never>) {
        let parked = state.withLock { state in
            if state.isCancelled || state.debouncer.hasPending { return false }
            state.waiter = continuation
            return true
        }
        if !parked { continuation.resume() }
    }

    /// Flushes a due batch and applies it to the watched set; nil when not due yet or when a
    /// watched-set-only subscriber's set did not change.
    private func flushIfDue() -> ContactChangeBatch? {
        let now = clock.now
        return state.withLock { state in
            guard let batch = state.debouncer.flush(at: now) else { return nil }
            var next = state.watched
            for (key, isWatched) in batch {
                if isWatched { next.insert(key.address) } else { next.remove(key.address) }
            }
            let changed = next != state.watched
            state.watched = next
            if interest == .watchedSetOnly, !changed { return nil }
            return ContactChangeBatch(
                changedKeys: Set(batch.keys), watchedAddresses: next, watchedSetChanged: changed)
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let feed: ContactChangeFeed<C>

        public mutating func next() async -> ContactChangeBatch? { await feed.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(feed: self) }
}

extension ContactsStore {
    /// Subscribes to this store's changes for `wallet`. KaChat used a 0.8 s quiet period and a
    /// 5 s cap (timeline-and-contacts §3.3); pass any `WallClock` (TandemTesting's `ManualClock` in tests).
    public func changeFeed<C: Clock>(
        wallet: ContactAddress, interest: ContactChangeInterest = .allChanges,
        quietPeriod: C.Duration, maxWait: C.Duration, clock: C
    ) throws -> ContactChangeFeed<C> where C.Duration: Sendable, UnixMillis: Sendable {
        // Register first, then read: a change committed in between is applied twice, which is
        // harmless because each change carries the absolute watched state.
        let feed = ContactChangeFeed(
            wallet: wallet, interest: interest, initialWatched: [],
            quietPeriod: quietPeriod, maxWait: maxWait, clock: clock, hub: changes)
        changes.add(feed)
        feed.setInitialWatched(try watchedAddresses(wallet: wallet))
        return feed
    }
}

extension ContactChangeFeed {
    func setInitialWatched(_ addresses: Set<ContactAddress>) {
        state.withLock { $0.watched = addresses }
    }
}
