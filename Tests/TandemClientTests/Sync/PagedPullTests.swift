import TandemAccounts
import TandemBasics
import Testing

@testable import TandemSync

/// The paged pull under the task and contacts pulls (issue 46 item 4): pages read in order with
/// one request ahead, batches stored in order, and a cancelled pull that stops as a unit and
/// stores nothing once it has returned. Pages here are numbers; page `n`'s cursor is `"n"`.
@Suite struct PagedPullTests {
    /// What the pull's stages did, in the order they did it.
    final class Trace: Sendable {
        let events = Locked<[String]>([])
        let storing = Locked(0)
        let stored = Locked<[Int]>([])

        func note(_ event: String) { events.withLock { $0.append(event) } }
    }

    /// A one-shot signal between a stage of the pull and the test.
    struct Signal: Sendable {
        let stream: AsyncStream<Void>
        let continuation: AsyncStream<Void>.Continuation

        init() { (stream, continuation) = AsyncStream<Void>.makeStream() }

        func fire() { continuation.yield() }

        func wait() async {
            for await _ in stream { return }
        }
    }

    static func pull(
        pages: Int?, trace: Trace, fetch: (@Sendable (Int) async throws(SyncError) -> Void)? = nil,
        store: (@Sendable (Int) async throws(SyncError) -> Void)? = nil
    ) -> PagedPull<Int, Int> {
        PagedPull<Int, Int>(
            fetch: { cursor async throws(SyncError) in
                let page = cursor.flatMap { Int($0) } ?? 1
                trace.note("fetch \(page)")
                try await fetch?(page)
                return page
            },
            cursorAfter: { page in pages.map { page < $0 } ?? true ? String(page + 1) : nil },
            store: { batch throws(SyncError) in
                trace.storing.withLock { $0 += 1 }
                defer { trace.storing.withLock { $0 -= 1 } }
                trace.note("store \(batch)")
                trace.stored.withLock { $0.append(batch) }
                return 1
            })
    }

    @Test func pagesAreReadInOrderWithOneRequestAheadAndBatchesStoredInOrder() async throws {
        let trace = Trace()
        let readsDone = Locked(0)
        let pull = PagedPull<Int, Int>(
            fetch: { cursor async throws(SyncError) in
                let page = cursor.flatMap { Int($0) } ?? 1
                // Page n is asked for only once page n-2 has been read: one page ahead at most.
                trace.note("fetch \(page) after \(readsDone.withLock { $0 }) read")
                return page
            },
            cursorAfter: { $0 < 9 ? String($0 + 1) : nil },
            store: { batch throws(SyncError) in
                trace.stored.withLock { $0.append(batch) }
                return batch % 2
            })
        var read: [Int] = []
        let changed = try await pull.run(after: nil) { page, store throws(SyncError) in
            read.append(page)
            try await store(page * 10)
            try await store(page * 10 + 1)
            readsDone.withLock { $0 += 1 }
        }
        #expect(read == Array(1...9))
        let handed: [Int] = (1...9).flatMap { page -> [Int] in [page * 10, page * 10 + 1] }
        let stored = trace.stored.withLock { $0 }
        #expect(stored == handed)
        #expect(changed == 9)
        for event in trace.events.withLock({ $0 }) {
            let words = event.split(separator: " ")
            let page = Int(words[1]) ?? 0
            let before = Int(words[3]) ?? 0
            #expect(page <= before + 2, "\(event)")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func aCancelledPullStopsAsAUnitAndStoresNothingAfterItReturns() async throws {
        let trace = Trace()
        let secondStoreBegan = Signal()
        let releaseSecondStore = Signal()
        let never = Signal()
        // The server answers pages 1 and 2; the request for page 3 stalls until it is cancelled
        // (a pull whose request were not cancelled with it would not return).
        let pull = PagedPullTests.pull(
            pages: nil, trace: trace,
            fetch: { page async throws(SyncError) in
                guard page > 2 else { return }
                await never.wait()
                throw .account(.unreachable(server: "test", reason: "stalled"))
            })
        let running = Task { () async throws(SyncError) -> Int in
            try await pull.run(after: nil) { page, store throws(SyncError) in
                if page == 2 { secondStoreBegan.fire() }
                try await store(page)
                if page == 2 { await releaseSecondStore.wait() }
            }
        }
        await secondStoreBegan.wait()
        running.cancel()
        releaseSecondStore.fire()
        let outcome = await running.result
        // When run returns, nothing is being stored, and no store began after the cancellation.
        let inFlight = trace.storing.withLock { $0 }
        #expect(throws: SyncError.cancelled) { try outcome.get() }
        #expect(inFlight == 0)
        #expect(trace.stored.withLock { $0 } == [1, 2])
        #expect(!trace.events.withLock { $0 }.contains("fetch 4"))
    }

    @Test func aFailedRequestSurfacesAfterTheBatchesHandedOverBeforeItAreStored() async throws {
        let trace = Trace()
        let failed = Signal()
        let pull = PagedPullTests.pull(
            pages: 9, trace: trace,
            fetch: { page async throws(SyncError) in
                guard page == 3 else { return }
                failed.fire()
                throw .account(.unreachable(server: "test", reason: "gone"))
            })
        var failure: SyncError?
        do {
            try await pull.run(after: nil) { page, store throws(SyncError) in
                // Page 2 is read while the request for page 3 fails.
                if page == 2 { await failed.wait() }
                try await store(page)
            }
        } catch { failure = error }
        #expect(failure == .account(.unreachable(server: "test", reason: "gone")))
        #expect(trace.stored.withLock { $0 } == [1, 2])
        #expect(trace.storing.withLock { $0 } == 0)
    }

    @Test func aFailedStoreStopsThePullAndNothingAfterItIsStored() async throws {
        let trace = Trace()
        let pull = PagedPull<Int, Int>(
            fetch: { cursor async throws(SyncError) in cursor.flatMap { Int($0) } ?? 1 },
            cursorAfter: { $0 < 9 ? String($0 + 1) : nil },
            store: { batch throws(SyncError) in
                if batch == 3 { throw .store("disk full") }
                trace.stored.withLock { $0.append(batch) }
                return 1
            })
        var read: [Int] = []
        var failure: SyncError?
        do {
            try await pull.run(after: nil) { page, store throws(SyncError) in
                read.append(page)
                try await store(page)
            }
        } catch { failure = error }
        #expect(failure == .store("disk full"))
        #expect(trace.stored.withLock { $0 } == [1, 2])
        // The failure is seen at the next hand-over at the latest.
        #expect(read.count <= 4)
    }
}
