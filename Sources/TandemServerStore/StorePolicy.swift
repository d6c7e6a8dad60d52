public import TandemBasics

/// How many database calls are running now, for `/metrics`' "database pool use" (issue 13
/// item 6): counted at each backend's choke points (``StorePolicy``), whatever the backend.
public final class StoreActivity: Sendable {
    private let count = Locked(0)

    public init() {}

    /// Calls inside the database at this moment.
    public var inFlight: Int { count.withLock { $0 } }

    func enter() { count.withLock { $0 += 1 } }
    func leave() { count.withLock { $0 -= 1 } }
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

    /// Runs one call that needs no time limit (a local file), counted.
    func counted<T>(_ operation: () throws -> T) rethrows -> T {
        activity.enter()
        defer { activity.leave() }
        return try operation()
    }

    /// ``counted(_:)`` for an asynchronous call.
    func countedAsync<T>(_ operation: () async throws -> T) async rethrows -> T {
        activity.enter()
        defer { activity.leave() }
        return try await operation()
    }
}
