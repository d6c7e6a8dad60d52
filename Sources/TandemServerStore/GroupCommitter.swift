public import ServiceLifecycle
import TandemBasics

/// Group commit for both backends (issue 11 "Figures"; issue 26 item 2): entries that arrive
/// while one batch is being stored wait together and are stored by the next, so a burst costs
/// one transaction (one WAL `fsync` on SQLite, one statement and one NOTIFY on PostgreSQL)
/// instead of one each. Batches are stored one after another, in arrival order, which is what
/// keeps relay positions in commit order.
///
/// It is a swift-service-lifecycle service: ``run()`` is the only task that stores, and it runs
/// in the application's service group (or a test's task group) — nothing is spawned per burst.
/// On graceful shutdown it refuses new entries, stores every entry already queued, and only
/// then returns, so no caller that was accepted is left without an answer; an entry submitted
/// after that is refused at once with ``ServerStoreError/unavailable(_:)``. An entry submitted
/// before ``run()`` starts waits for it: a service group starts its services and the HTTP
/// server together, so a request may arrive first.
///
/// Each caller is answered only after the batch holding its entry has been stored; `commit`
/// answers one result per entry, in order, so one bad entry need not fail its batch.
public final class GroupCommitter<Entry: Sendable, Outcome: Sendable>: Service {
    /// Stores one batch; answers one result per entry, in the same order.
    public typealias Commit = @Sendable ([Entry]) async -> [Result<Outcome, any Error>]

    private struct Waiter {
        let entry: Entry
        let continuation: CheckedContinuation<Outcome, any Error>
    }

    private enum Phase { case idle, running, stopping, stopped }

    private struct State {
        var phase = Phase.idle
        var queue: [Waiter] = []
    }

    /// What the service is called in errors and logs ("relay submissions").
    public let name: String
    /// Most entries one batch holds; bounds how long the first caller of a batch waits.
    public let maximumBatch: Int
    private let commit: Commit
    private let state = Locked(State())
    /// One element per wake-up; the newest is enough, since a drain takes the whole queue.
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    public init(name: String, maximumBatch: Int = 256, commit: @escaping Commit) {
        precondition(maximumBatch > 0, "a batch holds at least one entry")
        self.name = name
        self.maximumBatch = maximumBatch
        self.commit = commit
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Stores `entry` with the next batch and answers its outcome once that batch is stored.
    public func submit(_ entry: Entry) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let accepted = state.withLock { state -> Bool in
                guard state.phase == .idle || state.phase == .running else { return false }
                state.queue.append(Waiter(entry: entry, continuation: continuation))
                return true
            }
            if accepted {
                wake.yield()
            } else {
                continuation.resume(throwing: ServerStoreError.unavailable("\(name): the committer is not running"))
            }
        }
    }

    /// How many entries wait for a batch now (for tests).
    public var waiting: Int { state.withLock { $0.queue.count } }

    /// Whether ``run()`` is storing batches now (started, and not shutting down).
    public var accepting: Bool { state.withLock { $0.phase == .running } }

    /// Stores batches until graceful shutdown or cancellation, then stores what is still queued.
    /// A committer runs once: a second `run` (a test's task group and an application's service
    /// group both running the store's services) only waits for shutdown, as ``OnceService`` does.
    public func run() async {
        let started = state.withLock { state -> Bool in
            guard state.phase == .idle else { return false }
            state.phase = .running
            return true
        }
        guard started else {
            try? await gracefulShutdown()
            return
        }
        wake.yield()  // for what was submitted before the run started
        await withGracefulShutdownHandler {
            // Ends when the stream is finished (graceful shutdown) or the task is cancelled.
            for await _ in wakeups { await drain() }
        } onGracefulShutdown: {
            self.stopAccepting()
        }
        // Cancelled rather than shut down: stop accepting here. Either way, every entry
        // accepted before the phase changed is in the queue now, and is stored (or, if the
        // cancellation reaches the database call, answered with its error) before returning.
        stopAccepting()
        await drain()
        state.withLock { $0.phase = .stopped }
    }

    private func stopAccepting() {
        state.withLock { state in
            if state.phase == .running { state.phase = .stopping }
        }
        wake.finish()
    }

    /// Stores the queue, a batch at a time, until it is empty.
    private func drain() async {
        while true {
            let batch = state.withLock { state -> [Waiter] in
                let count = min(state.queue.count, maximumBatch)
                let batch = Array(state.queue.prefix(count))
                state.queue.removeFirst(count)
                return batch
            }
            guard !batch.isEmpty else { return }
            // A closure, not `\.entry`: in this generic class a key path is built at run time per batch.
            let results = await commit(batch.map { $0.entry })
            for (index, waiter) in batch.enumerated() {
                guard index < results.count else {
                    waiter.continuation.resume(
                        throwing: ServerStoreError.unavailable(
                            "\(name): the batch answered \(results.count) of \(batch.count)"))
                    continue
                }
                waiter.continuation.resume(with: results[index])
            }
        }
    }
}
