import Foundation
public import TandemBasics

/// A ``WallClock`` that only moves when told to, for tests and benchmarks, which never sleep
/// for real (STYLE "Clocks are injected; tests never sleep").
///
/// Sleepers wake when ``advance(by:)`` or ``set(_:)`` moves time to or past their deadline.
///
/// `@unchecked Sendable`: `current`, `sleepers` and `nextSleeper` are only touched while `lock`
/// is held, and continuations are resumed after it is released.
public final class ManualClock: WallClock, @unchecked Sendable {
    private struct Sleeper {
        let deadline: UnixMillis
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current: UnixMillis
    private var sleepers: [UInt64: Sleeper] = [:]
    private var nextSleeper: UInt64 = 0

    /// A clock standing at `start` (by default 2026-01-01T00:00:00.000Z).
    public init(_ start: UnixMillis = UnixMillis(1_767_225_600_000)) {
        current = start
    }

    public var now: UnixMillis {
        lock.withLock { current }
    }

    public var minimumResolution: Duration { .milliseconds(1) }

    /// How many sleeps are waiting (lets a test wait until a consumer is parked).
    public var sleeperCount: Int {
        lock.withLock { sleepers.count }
    }

    public func sleep(until deadline: UnixMillis, tolerance: Duration? = nil) async throws {
        let id = lock.withLock {
            nextSleeper += 1
            return nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enqueue(id: id, deadline: deadline, continuation: continuation)
            }
        } onCancel: {
            let sleeper = lock.withLock { sleepers.removeValue(forKey: id) }
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
        let due: [Sleeper] = lock.withLock {
            current = change(current)
            let now = current
            let due = sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { sleepers[id] = nil }
            return Array(due.values)
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    private func enqueue(id: UInt64, deadline: UnixMillis, continuation: CheckedContinuation<Void, any Error>) {
        let isDue: Bool = lock.withLock {
            if deadline <= current { return true }
            sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
            return false
        }
        if isDue { continuation.resume() }
    }
}
