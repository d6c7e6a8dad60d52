public import TandemBasics

/// A UTC instant in the protocol's one timestamp format, `YYYY-MM-DDTHH:mm:ss.sssZ` (spec §2
/// `timestamp.wall`; payload timestamps too, RES-5).
///
/// A ``UnixMillis`` restricted to years 1…9999, the range the fixed-width text can write: the
/// text is fixed-width ASCII, so byte order of the text and numeric order agree (spec §7.1),
/// and arithmetic (SNOOZE, ranking) needs the number. Text goes through ``UnixMillis/iso8601``.
public struct WallTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The instant, always within ``UnixMillis/isWithinISO8601Range``.
    public let instant: UnixMillis

    public var millisecondsSinceEpoch: Int64 { instant.rawValue }

    /// Parses the exact format and rejects impossible instants (Feb 30, hour 24, second 60).
    public init?(_ text: String) {
        guard let instant = UnixMillis(iso8601: text) else { return nil }
        self.instant = instant
    }

    /// An instant within years 1…9999; nil outside what the format can write.
    public init?(_ instant: UnixMillis) {
        guard instant.isWithinISO8601Range else { return nil }
        self.instant = instant
    }

    /// An instant within years 1…9999; nil outside what the format can write.
    public init?(millisecondsSinceEpoch value: Int64) {
        self.init(UnixMillis(value))
    }

    /// The instant `days` × 86 400 s later, or nil when it leaves the format's range (RES-10).
    public func adding(days: Int64) -> WallTime? {
        instant.adding(days: days).flatMap(WallTime.init)
    }

    public var description: String { instant.iso8601 }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool { lhs.instant < rhs.instant }
}
