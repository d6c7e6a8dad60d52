import Foundation

/// Tandem's one clock: where every layer reads the time and schedules waits.
///
/// A Swift `Clock` whose instants are ``UnixMillis``, so one injected value serves both the
/// stores that stamp records (`clock.now`) and the services that debounce or back off
/// (`try await clock.sleep(until:)`). It is one of the three seams of ARCHITECTURE.md: the
/// system clock in apps and `tandem`, a manual clock in tests, which never sleep for real.
public protocol WallClock: Clock, Sendable where Instant == UnixMillis {}

/// The device's clock, optionally shifted so that it starts at a chosen instant and runs on in
/// real time from there (`tandem … --now` for scripts).
public struct SystemClock: WallClock {
    private let offset: Int64

    public init() { offset = 0 }

    /// A clock that reads `start` now and advances in real time.
    public init(startingAt start: UnixMillis) {
        offset = UnixMillis(Date()).milliseconds(to: start)
    }

    public var now: UnixMillis {
        let real = UnixMillis(Date())
        return real.adding(milliseconds: offset) ?? real
    }

    public var minimumResolution: Duration { .milliseconds(1) }

    public func sleep(until deadline: UnixMillis, tolerance: Duration? = nil) async throws {
        let remaining = now.milliseconds(to: deadline)
        guard remaining > 0 else { return }
        try await ContinuousClock().sleep(for: .milliseconds(remaining), tolerance: tolerance)
    }
}
