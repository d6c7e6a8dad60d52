import Foundation

/// Tandem's one clock: where every layer reads the time and schedules waits.
///
/// A Swift `Clock` whose instants are ``UnixMillis``, so one injected value serves both the
/// stores that stamp records (`clock.now`) and the services that debounce or back off
/// (`try await clock.sleep(until:)`). It is one of the three seams of ARCHITECTURE.md: the
/// system clock in apps and `tandem`, a manual clock in tests, which never sleep for real.
public protocol WallClock: Clock, Sendable where Instant == UnixMillis {}

/// The device's clock.
public struct SystemClock: WallClock {
    public init() {}

    public var now: UnixMillis { UnixMillis(Date()) }

    public var minimumResolution: Duration { .milliseconds(1) }

    public func sleep(until deadline: UnixMillis, tolerance: Duration? = nil) async throws {
        let remaining = now.milliseconds(to: deadline)
        guard remaining > 0 else { return }
        try await ContinuousClock().sleep(for: .milliseconds(remaining), tolerance: tolerance)
    }
}
