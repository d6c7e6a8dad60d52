import Foundation

/// The physical time source of the store's hybrid logical clock: injected so tests choose
/// (and skew) each replica's time, and never sleep (ARCHITECTURE "the clock" seam).
public protocol WallClock: Sendable {
    func now() -> UnixMillis
}

/// The device clock.
public struct SystemWallClock: WallClock {
    public init() {}

    public func now() -> UnixMillis {
        UnixMillis(Int64((Date().timeIntervalSince1970 * 1000).rounded()))
    }
}
