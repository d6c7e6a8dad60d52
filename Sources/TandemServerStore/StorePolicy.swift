public import TandemBasics

/// How many database calls are running now, for `/metrics`' "database pool use" (issue 13
/// item 6): counted at each backend's choke points (``StorePolicy``), whatever the backend.
///
/// Reads a client waits for are also counted apart where the backend runs them in this process
/// (SQLite), so a background writer can let them finish first (``readsQuiet(atMost:)``, issue
/// 49 item 5: the chain ingester between its commits).
public final class StoreActivity: Sendable {
    private struct Counts {
        var calls = 0
        var reads = 0
        var nextWaiter = 0
        var waiters: [Int: Waiter] = [:]
    }

    /// A caller of ``readsQuiet(atMost:)`` and the timer that ends its wait at the limit.
    private struct Waiter {
        let continuation: CheckedContinuation<Void, Never>
        var timer: Task<Void, Never>?
    }

    private let counts = Locked(Counts())

    public init() {}

    /// Calls inside the database at this moment.
    public var inFlight: Int { counts.withLock { $0.calls } }

    /// Reads inside the database at this moment (SQLite's; PostgreSQL's are not told apart).
    public var readsInFlight: Int { counts.withLock { $0.reads } }

    /// Callers of ``readsQuiet(atMost:)`` waiting now.
    var waiting: Int { counts.withLock { $0.waiters.count } }

    /// Returns once no read is in flight, or after `limit` at most: a background writer yields to
    /// the reads in flight without being held back by a steady stream of them.
    public func readsQuiet(atMost limit: Duration) async {
        guard limit > .zero else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = counts.withLock { counts -> Int? in
                guard counts.reads > 0 else { return nil }
                counts.nextWaiter += 1
                counts.waiters[counts.nextWaiter] = Waiter(continuation: continuation)
                return counts.nextWaiter
            }
            guard let waiter else { return continuation.resume() }
            let timer = Task {
                try? await Task.sleep(for: limit)
                self.counts.withLock { $0.waiters.removeValue(forKey: waiter) }?.continuation.resume()
            }
            // Released already: the timer has nothing left to end.
            let released = counts.withLock { counts -> Bool in
                guard counts.waiters[waiter] != nil else { return true }
                counts.waiters[waiter]?.timer = timer
                return false
            }
            if released { timer.cancel() }
        }
    }

    func enter(read: Bool = false) {
        counts.withLock { counts in
            counts.calls += 1
            if read { counts.reads += 1 }
        }
    }

    func leave(read: Bool = false) {
        let released = counts.withLock { counts -> [Waiter] in
            counts.calls -= 1
            guard read else { return [] }
            counts.reads -= 1
            guard counts.reads == 0, !counts.waiters.isEmpty else { return [] }
            defer { counts.waiters = [:] }
            return Array(counts.waiters.values)
        }
        for waiter in released {
            waiter.timer?.cancel()
            waiter.continuation.resume()
        }
    }
}

/// A time limit on one database call (issue 14 audit: with PostgreSQL unreachable a sign-in hung
/// 67 s and then answered 500). The call runs in a task of its own and a timer on `clock` races
/// it; the caller gets whichever finishes first and the loser is cancelled. A call that ignores
/// cancellation runs on in the background, but no request waits for it. Errors that
/// `isUnavailable` recognises (a refused connection, a closed pool) become
/// ``ServerStoreError/unavailable(_:)`` too, so the HTTP layer answers 503 `DATABASE_UNAVAILABLE`.
public struct StoreDeadline: Sendable {
    public let timeout: Duration
    public let clock: any WallClock
    public let isUnavailable: @Sendable (any Error) -> Bool

    public init(timeout: Duration, clock: any WallClock, isUnavailable: @escaping @Sendable (any Error) -> Bool) {
        self.timeout = timeout
        self.clock = clock
        self.isUnavailable = isUnavailable
    }

    /// `operation`'s answer or error, or `.unavailable` once `timeout` has passed on `clock`.
    public func bound<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = DeadlineRace<T>()
        let (timeout, clock, isUnavailable) = (timeout, clock, isUnavailable)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.start(continuation)
                let work = Task {
                    do {
                        race.finish(.success(try await operation()))
                    } catch {
                        race.finish(.failure(isUnavailable(error) ? ServerStoreError.unavailable("\(error)") : error))
                    }
                }
                let timer = Task {
                    try? await clock.sleep(until: clock.now.advanced(by: timeout), tolerance: nil)
                    race.finish(.failure(ServerStoreError.unavailable("no answer within \(timeout)")))
                }
                race.onFinish {
                    work.cancel()
                    timer.cancel()
                }
            }
        } onCancel: {
            race.finish(.failure(CancellationError()))
        }
    }
}

/// What every database call of a backend goes through at the backend's few choke points (issue
/// 26 item 2): counted while in flight (``StoreActivity``) and, where the database is across a
/// network (PostgreSQL), bounded by a ``StoreDeadline``. A new store method gets both by using
/// its backend's choke points; nothing wraps the store from outside.
public struct StorePolicy: Sendable {
    public let activity: StoreActivity
    /// nil: no time limit (SQLite, a local file whose single writer orders the calls).
    public let deadline: StoreDeadline?

    public init(activity: StoreActivity = StoreActivity(), deadline: StoreDeadline? = nil) {
        self.activity = activity
        self.deadline = deadline
    }

    /// Runs one call under the policy.
    func run<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        activity.enter()
        defer { activity.leave() }
        guard let deadline else { return try await operation() }
        return try await deadline.bound(operation)
    }

    /// Runs one call that needs no time limit (a local file), counted; `read` counts it among
    /// the ``StoreActivity/readsInFlight`` too.
    func counted<T>(read: Bool = false, _ operation: () throws -> T) rethrows -> T {
        activity.enter(read: read)
        defer { activity.leave(read: read) }
        return try operation()
    }

    /// ``counted(read:_:)`` for an asynchronous call.
    func countedAsync<T>(read: Bool = false, _ operation: () async throws -> T) async rethrows -> T {
        activity.enter(read: read)
        defer { activity.leave(read: read) }
        return try await operation()
    }
}
