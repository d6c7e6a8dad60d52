public import Foundation
import NIOConcurrencyHelpers

/// The server's source of time: session expiry, sliding refresh and rate-limit windows all
/// read it, so tests move time instead of sleeping (ARCHITECTURE.md: the clock is a seam).
public protocol ServerClock: Sendable {
    func now() -> Date
}

/// Wall-clock time.
public struct SystemClock: ServerClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to: for tests and benchmarks.
public final class ManualClock: ServerClock {
    private let current: NIOLockedValueBox<Date>

    public init(_ start: Date) { current = NIOLockedValueBox(start) }

    public func now() -> Date { current.withLockedValue { $0 } }

    public func advance(by seconds: TimeInterval) {
        current.withLockedValue { $0 = $0.addingTimeInterval(seconds) }
    }
}
