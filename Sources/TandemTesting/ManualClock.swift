public import TandemBasics

/// A ``WallClock`` that only moves when told to, for tests and benchmarks, which never sleep
/// for real (STYLE "Clocks are injected; tests never sleep").
///
/// Sleepers wake when ``advance(by:)`` or ``set(_:)`` moves time to or past their deadline.
///
/// Sleepers due at the same move wake in deadline order (ties in the order they slept), after
/// the lock is released.
public final class ManualClock: WallClock, Sendable {
    private struct Sleeper {
        let deadline: UnixMillis
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var current: UnixMillis
        var sleepers: [UInt64: Sleeper] = [:]
        /// Sleeps cancelled before they were enqueued: `enqueue` finds them here and throws.
        var cancelled: Set<UInt64> = []
        var nextSleeper: UInt64 = 0
    }

    private let state: Locked<State>

    /// A clock standing at `start` (by default 2026-01-01T00:00:00.000Z).
    public init(_ start: UnixMillis = UnixMillis(1_767_225_600_000)) {
        state = Locked(State(current: start))
    }

    public var now: UnixMillis {
        state.withLock { $0.current }
    }

    public var minimumResolution: Duration { .milliseconds(1) }

    /// How many sleeps are waiting (lets a test wait until a consumer is parked).
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    public func sleep(until deadline: UnixMillis, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            state.nextSleeper += 1
            return state.nextSleeper
        }
        defer { _ = state.withLock { $0.cancelled.remove(id) } }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enqueue(id: id, deadline: deadline, continuation: continuation)
            }
        } onCancel: {
            // The handler may run before the continuation is enqueued (a task cancelled before
            // it slept): then the id is remembered and `enqueue` throws at once.
            let sleeper: Sleeper? = state.withLock { state in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        move { $0.advanced(by: duration) }
    }

    /// Moves time to `instant` (backwards too, to model a skewed or corrected device clock)
    /// and wakes every sleeper whose deadline has come.
    public func set(_ instant: UnixMillis) {
        move { _ in instant }
    }

    private func move(_ change: (UnixMillis) -> UnixMillis) {
        let due: [Sleeper] = state.withLock { state in
            state.current = change(state.current)
            let now = state.current
            let due = state.sleepers.filter { $0.value.deadline <= now }
                .sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }
            for (id, _) in due { state.sleepers[id] = nil }
            return due.map(\.value)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    private func enqueue(id: UInt64, deadline: UnixMillis, continuation: CheckedContinuation<Void, any Error>) {
        enum Outcome { case due, cancelled, waiting }
        let outcome: Outcome = state.withLock { state in
            if state.cancelled.contains(id) { return .cancelled }
            if deadline <= state.current { return .due }
            state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
            return .waiting
        }
        switch outcome {
        case .due: continuation.resume()
        case .cancelled: continuation.resume(throwing: CancellationError())
        case .waiting: break
        }
    }
}
