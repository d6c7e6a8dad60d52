/// A point in time as milliseconds since 1970-01-01 UTC: how the store keeps dates, so records
/// compare and encode exactly on every platform (no floating point).
public struct UnixMillis: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) { self.rawValue = rawValue }

    /// Seconds between 1970-01-01 and 2001-01-01, the reference date of Swift's `Date`, which is
    /// how KaChat's `JSONEncoder` wrote `addedAt` (kasia-protocol §8).
    public static let referenceDateOffsetSeconds: Int64 = 978_307_200

    /// Converts KaChat's seconds since 2001-01-01; nil when the value is not finite or out of range.
    public init?(secondsSinceReferenceDate seconds: Double) {
        let millis = (seconds + Double(Self.referenceDateOffsetSeconds)) * 1000
        guard millis.isFinite, millis > -9.0e15, millis < 9.0e15 else { return nil }
        self.rawValue = Int64(millis.rounded())
    }

    public func adding(days: Int64) -> UnixMillis { UnixMillis(rawValue + days * 86_400_000) }

    public var description: String { String(rawValue) }

    public static func < (lhs: UnixMillis, rhs: UnixMillis) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
