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
    public func text(_ instant: UnixMillis) -> String { text(shifted: shifted(instant)) }

    private func text(shifted wall: String) -> String {
        let clock = "\(wall.prefix(10)) \(wall.dropFirst(11).prefix(5))"
        return marksUTC ? clock + " UTC" : clock
    }

    /// `YYYY-MM-DD`: the day the instant falls on in the zone.
    public func day(_ instant: UnixMillis) -> String { String(shifted(instant).prefix(10)) }

    /// A deadline: the day alone when it is local midnight (how a date typed as `YYYY-MM-DD` or
    /// `tomorrow` is stored), otherwise ``text(_:)``. In UTC always ``text(_:)``, whose ` UTC`
    /// mark says the time is not local: a bare day reads back as local midnight.
    public func deadline(_ instant: UnixMillis) -> String {
        let wall = shifted(instant)
        guard !marksUTC, wall.dropFirst(11).hasPrefix("00:00:00.000") else { return text(shifted: wall) }
        return String(wall.prefix(10))
    }

    /// The ISO-8601 text of the wall clock in the zone (its `Z` no longer meaning UTC).
    private func shifted(_ instant: UnixMillis) -> String {
        let seconds = Double(instant.rawValue) / 1000
        let offset = Int64(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        let (sum, overflow) = instant.rawValue.addingReportingOverflow(offset * 1000)
        return UnixMillis(overflow ? instant.rawValue : sum).iso8601
    }
}
