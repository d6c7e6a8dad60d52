public import Foundation

/// The one form a person reads a time in (issue 51 item 7): `YYYY-MM-DD HH:MM` in the reader's
/// time zone, or `YYYY-MM-DD HH:MM UTC` when they asked for UTC; a day alone is `YYYY-MM-DD`.
///
/// Machine output (`--json`) keeps ISO-8601 UTC (``UnixMillis/iso8601``); this is for lines a
/// person reads, where a due date of local midnight must not print as the day before.
public struct HumanTime: Sendable {
    /// The zone times are shown in.
    public let timeZone: TimeZone

    /// Times in `timeZone` (the process's zone unless given), or in UTC with a ` UTC` mark.
    public init(utc: Bool = false, local: TimeZone = .current) {
        timeZone = utc ? TimeZone(identifier: "UTC") ?? local : local
        marksUTC = utc
    }

    private let marksUTC: Bool

    /// `YYYY-MM-DD HH:MM` in the zone (minutes are enough to read; JSON has the milliseconds).
    public func text(_ instant: UnixMillis) -> String { text(wall: wall(instant)) }

    /// The wall clock's minute, written from its fields (issue 49 item 2: a task list writes one
    /// per row, and cutting it out of the ISO-8601 text cost more than the rest of the row).
    private func text(wall: UnixMillis) -> String {
        wall.iso8601Text(length: 16, separator: UInt8(ascii: " "), suffix: marksUTC ? " UTC" : "")
    }

    /// `YYYY-MM-DD`: the day the instant falls on in the zone.
    public func day(_ instant: UnixMillis) -> String {
        wall(instant).iso8601Text(length: 10, separator: UInt8(ascii: " "), suffix: "")
    }

    /// A deadline: the day alone when it is local midnight (how a date typed as `YYYY-MM-DD` or
    /// `tomorrow` is stored), otherwise ``text(_:)``. In UTC always ``text(_:)``, whose ` UTC`
    /// mark says the time is not local: a bare day reads back as local midnight.
    public func deadline(_ instant: UnixMillis) -> String {
        let wall = wall(instant)
        // Midnight of the day the text shows: the text clamps to years 0001…9999, so ask of the
        // clamped instant.
        let shown = min(max(wall, UnixMillis.earliestISO8601), UnixMillis.latestISO8601)
        guard !marksUTC, shown.rawValue % 86_400_000 == 0 else { return text(wall: wall) }
        return wall.iso8601Text(length: 10, separator: UInt8(ascii: " "), suffix: "")
    }

    /// The wall clock in the zone, as an instant whose UTC fields are the zone's.
    private func wall(_ instant: UnixMillis) -> UnixMillis {
        let seconds = Double(instant.rawValue) / 1000
        let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        let (sum, overflow) = instant.rawValue.addingReportingOverflow(offset * 1000)
        return overflow ? instant : UnixMillis(sum)
    }
}
