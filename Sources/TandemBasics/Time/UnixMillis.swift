public import Foundation

/// A point in time as whole milliseconds since 1970-01-01 UTC.
///
/// Every Tandem module keeps time this way: stores and wire formats compare and encode it
/// exactly on every platform (no floating point), and the one text form is ``iso8601``.
/// It is also the `Instant` of ``WallClock``, so the same value schedules sleeps.
public struct UnixMillis: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// The instant of `date`, rounded to the nearest millisecond; saturates far outside ±292 My.
    public init(_ date: Date) {
        let millis = (date.timeIntervalSince1970 * 1000).rounded()
        if millis >= 9.2e18 {
            rawValue = .max
        } else if millis <= -9.2e18 {
            rawValue = .min
        } else {
            rawValue = Int64(millis)
        }
    }

    /// This instant as a Foundation `Date`.
    public var date: Date { Date(timeIntervalSince1970: Double(rawValue) / 1000) }

    /// The instant `days` × 86 400 000 ms later, or nil on overflow.
    public func adding(days: Int64) -> UnixMillis? {
        adding(milliseconds: days.multipliedReportingOverflow(by: 86_400_000))
    }

    /// The instant `milliseconds` later, or nil on overflow.
    public func adding(milliseconds: Int64) -> UnixMillis? {
        adding(milliseconds: (milliseconds, false))
    }

    private func adding(milliseconds product: (partialValue: Int64, overflow: Bool)) -> UnixMillis? {
        guard !product.overflow else { return nil }
        let (sum, overflow) = rawValue.addingReportingOverflow(product.partialValue)
        return overflow ? nil : UnixMillis(sum)
    }

    /// Whole milliseconds from `self` to `other` (negative when `other` is earlier), saturating.
    public func milliseconds(to other: UnixMillis) -> Int64 {
        let (difference, overflow) = other.rawValue.subtractingReportingOverflow(rawValue)
        if overflow { return other.rawValue > rawValue ? .max : .min }
        return difference
    }

    public var description: String { String(rawValue) }

    public static func < (lhs: UnixMillis, rhs: UnixMillis) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Encoded as a bare JSON integer.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

extension UnixMillis: InstantProtocol {
    /// Moves by `duration`, truncated to whole milliseconds and saturating at the ends of time.
    public func advanced(by duration: Duration) -> UnixMillis {
        let (seconds, attoseconds) = duration.components
        let (secondsMillis, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        let delta =
            overflow
            ? (seconds > 0 ? Int64.max : Int64.min)
            : secondsMillis.addingReportingOverflow(attoseconds / 1_000_000_000_000_000).partialValue
        let (sum, sumOverflow) = rawValue.addingReportingOverflow(delta)
        if sumOverflow { return UnixMillis(delta > 0 ? .max : .min) }
        return UnixMillis(sum)
    }

    public func duration(to other: UnixMillis) -> Duration {
        .milliseconds(milliseconds(to: other))
    }
}
