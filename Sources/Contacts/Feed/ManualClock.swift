import Foundation

/// A clock that only moves when told to: for tests and benchmarks of the change feed, which
/// must never sleep for real (STYLE "Clocks are injected; tests never sleep").
///
/// `@unchecked Sendable`: `current` and `sleepers` are only touched under `lock`; continuations
/// are resumed outside it.
public final class ManualClock: Clock, @unchecked Sendable {
    public struct Instant: InstantProtocol, Sendable {
        public let offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private let lock = NSLock()
    private var current = Instant(offset: .zero)
    private var sleepers: [UInt64: Sleeper] = [:]
    private var nextSleeper: UInt64 = 0

    public init() {}

    public var now: Instant {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    public var minimumResolution: Duration { .zero }

    /// How many sleeps are waiting (lets a test wait until a consumer is parked).
    public var sleeperCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return sleepers.count
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = reserveID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enqueue(id: id, deadline: deadline, continuation: continuation)
            }
        } onCancel: {
            cancelSleeper(id)
        }
    }

    /// Moves time forward and wakes every sleeper whose deadline has come.
    public func advance(by duration: Duration) {
        lock.lock()
        current = current.advanced(by: duration)
        let now = current
        let due = sleepers.filter { $0.value.deadline <= now }
        for id in due.keys { sleepers[id] = nil }
        lock.unlock()
        for sleeper in due.values { sleeper.continuation.resume() }
    }

    private func reserveID() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        nextSleeper += 1
        return nextSleeper
    }

    private func enqueue(id: UInt64, deadline: Instant, continuation: CheckedContinuation<Void, any Error>) {
        lock.lock()
        if deadline <= current {
            lock.unlock()
            continuation.resume()
            return
        }
        sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
        lock.unlock()
    }

    private func cancelSleeper(_ id: UInt64) {
        lock.lock()
        let sleeper = sleepers.removeValue(forKey: id)
        lock.unlock()
        sleeper?.continuation.resume(throwing: CancellationError())
    }
}
