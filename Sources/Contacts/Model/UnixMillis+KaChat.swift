public import TandemBasics

/// KaChat's `addedAt`/`lastMessageAt`: seconds since 2001-01-01 as a `Double`, because its
/// `JSONEncoder` wrote Swift `Date`s with the default strategy (kasia-protocol §8).
extension UnixMillis {
    /// Seconds between 1970-01-01 and 2001-01-01, the reference date of Swift's `Date`.
    public static let referenceDateOffsetSeconds: Int64 = 978_307_200

    /// Converts KaChat's seconds since 2001-01-01; nil when the value is not finite or out of range.
    public init?(secondsSinceReferenceDate seconds: Double) {
        let millis = (seconds + Double(Self.referenceDateOffsetSeconds)) * 1000
        guard millis.isFinite, millis > -9.0e15, millis < 9.0e15 else { return nil }
        self.init(Int64(millis.rounded()))
    }
}
