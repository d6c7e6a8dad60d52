public import ServiceLifecycle
import TandemAPI
import TandemBasics
import TandemServerStore

/// The in-process queue in front of the sync writes (issue 12; found by `scripts/load`
/// sync-push on PostgreSQL): every write that takes the sync clock — a node push, a contact
/// put, a share, a device key bound or revoked — runs here one at a time, in arrival order,
/// on the backends that need it (`ServerStore.queuesSyncWrites`: PostgreSQL only).
///
/// Why queue here rather than in the database: on PostgreSQL those writes hold the clock's
/// single row lock (`SELECT … FOR UPDATE`) until COMMIT, so they run one at a time anyway. Left
/// to the database, a busy account's 64 concurrent pushes each held a pool connection while
/// waiting for the lock, starving every other route of connections, and the wait counted
/// against the store's deadline (`StoreDeadline`, 5 s), so a push queued behind others was
/// answered 503 `DATABASE_UNAVAILABLE` though the database was fine. Queued here, a waiting
/// write holds no connection and the deadline covers only its own work.
///
/// Why not on SQLite (session 7): GRDB's single writer already orders the write transactions,
/// a write waiting for it holds nothing scarce, and the SQLite store has no deadline to run
/// past, so the queue protects nothing there; it only makes each push wait for the whole
/// previous call (its reads, planning and async hops) instead of just its transaction.
/// Admitting the next write as soon as the previous one reaches the writer would need the
/// store to report that moment and would still add a hop per write; passing straight through
/// is simpler and is what `4b6fce9` (1,760 req/s against 1,054 with the queue, session 6) did.
/// With `queues` false `run` calls the write at once, and SQLite never answers `SYNC_BUSY`.
/// On an idle machine that brought SQLite's sync-push back to `4b6fce9`'s rate (1,735 and
/// 1,560 req/s against 1,688 and 1,718; RELIABILITY.md, session 7).
///
/// Where it queues, the queue is bounded (`SyncWriteLimits`, `tandem serve --sync-queue-*`),
/// and only then is a write refused, with 429 `SYNC_BUSY` and `Retry-After` (in the OpenAPI
/// document): when `limits.maxWaiting` writes already wait, when the same account already has
/// `maxWaitingPerAccount` waiting (one account cannot fill the queue for everyone; the client
/// pushes one request at a time per device, so honest accounts stay far below it), or when a
/// write has waited `maxWait`. 429 rather than 503: the database is up, and the sync client's
/// retry policy waits for `Retry-After` (bounded by its own maximum) and retries.
///
/// The refusals of writes that waited `maxWait` come from ``run()``, a swift-service-lifecycle
/// service in the application's service group (issue 26 item 2: no task spawned by a request).
/// Without it running, queued writes are still admitted in order; only the wait bound is lost.
final class SyncWriteGate: Service {
    /// False: every write runs at once (the store orders its writes itself; see above).
    let queues: Bool
    let limits: SyncWriteLimits
    /// The clock deadlines are read from and slept on (a `ManualClock` in tests).
    let clock: any WallClock
    /// Each account's pace of writes (`limits.writeBurst`, `writesPerSecond`); nil when the
    /// server does not rate-limit (`--no-rate-limit`).
    let pace: TokenBucketLimiter?

    private struct Waiter {
        let id: UInt64
        let account: String
        let continuation: CheckedContinuation<Void, any Error>
        /// When it is refused if still waiting: its arrival plus `limits.maxWait`.
        let deadline: UnixMillis
    }

    private struct State {
        var running = false
        var queue: [Waiter] = []
        var waitingByAccount: [String: Int] = [:]
        var nextID: UInt64 = 0

        mutating func remove(_ id: UInt64) -> Waiter? {
            guard let index = queue.firstIndex(where: { $0.id == id }) else { return nil }
            return take(at: index)
        }

        mutating func take(at index: Int) -> Waiter {
            let waiter = queue.remove(at: index)
            let left = (waitingByAccount[waiter.account] ?? 1) - 1
            waitingByAccount[waiter.account] = left > 0 ? left : nil
            return waiter
        }
    }

    /// `queuedFirst`: queued into an empty queue, so the sweeper is woken for its deadline.
    private enum Admission { case now, queued, queuedFirst, refused, cancelled }

    private let state = Locked(State())
    /// Wakes ``run()`` when a write joins an empty queue; the newest wake-up is enough.
    private let wakeups: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation

    init(
        queues: Bool = true, limits: SyncWriteLimits = SyncWriteLimits(), clock: any WallClock = SystemClock(),
        paced: Bool = false
    ) {
        self.queues = queues
        self.limits = limits
        self.clock = clock
        pace =
            paced
            ? TokenBucketLimiter(
                clock: clock, policy: .init(burst: Double(limits.writeBurst), perSecond: limits.writesPerSecond))
            : nil
        (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The gate the router puts in front of `store`'s sync writes: a queue only where the store
    /// says its writers would otherwise wait holding a connection.
    convenience init(
        for store: any SyncStore, limits: SyncWriteLimits, paced: Bool = false, clock: any WallClock = SystemClock()
    ) {
        self.init(queues: store.queuesSyncWrites, limits: limits, clock: clock, paced: paced)
    }

    /// The answer of a write past its account's pace.
    static func tooFast(retryAfter seconds: Int) -> APIFailure {
        APIFailure(
            .tooManyRequests, .rateLimited, "Too many sync writes for this account; retry after \(seconds) s.",
            headers: [.retryAfter: String(seconds)])
    }

    /// The answer of a refused write: the queue is full or the wait too long.
    static func busy(_ reason: String) -> APIFailure {
        APIFailure(
            .tooManyRequests, .syncBusy, "Sync writes are queued (\(reason)); retry after 1 s.",
            headers: [.retryAfter: "1"])
    }

    /// Runs `write` once every write queued before it has finished (at once when `queues` is
    /// false), unless the account is past its pace (429 `RATE_LIMITED`).
    func run<T: Sendable>(account: String, _ write: () async throws -> T) async throws -> T {
        if let pace, let wait = await pace.admit([account]) { throw Self.tooFast(retryAfter: wait) }
        guard queues else { return try await write() }
        try await enter(account: account)
        defer { leave() }
        return try await write()
    }

    /// How many writes wait now (for tests and metrics).
    var waiting: Int { state.withLock { $0.queue.count } }
    /// Whether a queued write runs now (for tests: a write is admitted before the next is sent).
    var isRunning: Bool { state.withLock { $0.running } }

    private func enter(account: String) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let now = clock.now
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admission = state.withLock { state -> Admission in
                    // Checked under the lock that `drop` takes: a cancellation either shows
                    // here or finds the waiter queued.
                    if Task.isCancelled { return .cancelled }
                    if !state.running {
                        state.running = true
                        return .now
                    }
                    guard state.queue.count < limits.maxWaiting,
                        state.waitingByAccount[account, default: 0] < limits.maxWaitingPerAccount
                    else { return .refused }
                    let deadline = now.advanced(by: limits.maxWait)
                    state.queue.append(
                        Waiter(id: id, account: account, continuation: continuation, deadline: deadline))
                    state.waitingByAccount[account, default: 0] += 1
                    return state.queue.count == 1 ? .queuedFirst : .queued
                }
                switch admission {
                case .now: continuation.resume()
                case .refused: continuation.resume(throwing: Self.busy("the queue is full"))
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .queued: break
                case .queuedFirst: wake.yield()
                }
            }
        } onCancel: {
            drop(id, with: CancellationError())
        }
    }

    /// Removes a write still waiting and fails it; one already admitted is left alone.
    private func drop(_ id: UInt64, with error: any Error) {
        guard let waiter = state.withLock({ $0.remove(id) }) else { return }
        waiter.continuation.resume(throwing: error)
    }

    /// Refuses the writes that have waited `limits.maxWait`, until graceful shutdown (by then the
    /// HTTP server, shut down before it, has answered every request).
    ///
    /// One sleeper for the whole queue, not a timer per waiter: the queue is in arrival order,
    /// so the oldest waiter's deadline is the next one due. A timer per waiter cancelled at
    /// admission would, at a thousand writes a second, leave thousands of cancelled sleeps
    /// holding memory until their deadlines (swiftlang/swift#60441, the pattern session 7 found in
    /// the PostgreSQL pool). This one is never cancelled for an admission: when the write it
    /// slept for has been admitted meanwhile, it wakes, finds nothing expired, and sleeps until
    /// the new oldest's deadline; with the queue empty it waits for the next write to queue.
    func run() async {
        await cancelWhenGracefulShutdown {
            for await _ in self.wakeups {
                guard (try? await self.sweep()) != nil else { return }
            }
        }
    }

    /// Sleeps until the oldest waiter's deadline and refuses every waiter past its own, until the
    /// queue is empty; throws when cancelled.
    private func sweep() async throws {
        while let next = state.withLock({ $0.queue.first?.deadline }) {
            try await clock.sleep(until: next, tolerance: nil)
            let now = clock.now
            let expired = state.withLock { state -> [Waiter] in
                var expired: [Waiter] = []
                while let oldest = state.queue.first, oldest.deadline <= now { expired.append(state.take(at: 0)) }
                return expired
            }
            for waiter in expired { waiter.continuation.resume(throwing: Self.busy("waited \(limits.maxWait)")) }
        }
    }

    /// Hands the turn to the oldest waiting write, if any.
    private func leave() {
        let next = state.withLock { state -> Waiter? in
            guard !state.queue.isEmpty else {
                state.running = false
                return nil
            }
            return state.take(at: 0)
        }
        next?.continuation.resume()
    }
}
