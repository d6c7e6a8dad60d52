public import Foundation

/// Days in one time zone, for instants in milliseconds: which day an instant falls on, that day's
/// `YYYY-MM-DD` and weekday. A day is a count of days since 1970-01-01 in the zone.
///
/// Foundation's `Calendar` costs microseconds per call, too much for 100,000 completions
/// (issue 27's figure), so the zone's UTC offsets are looked up once per stretch between
/// transitions and the civil date is computed by integer arithmetic (the proleptic Gregorian
/// calendar, as ISO 8601).
public struct DayCalendar: Sendable {
    public let timeZone: TimeZone
    /// Sorted by start: from each start (ms) on, this offset (ms) applies until the next start.
    private let offsets: [(start: Int64, offset: Int64)]

    /// A calendar able to place every instant in `range` (ms since 1970); instants outside it
    /// fall back to the offset of the nearest end.
    public init(timeZone: TimeZone, covering range: ClosedRange<Int64>) {
        self.timeZone = timeZone
        var offsets: [(start: Int64, offset: Int64)] = []
        var instant = Date(timeIntervalSince1970: Double(range.lowerBound) / 1000)
        offsets.append((Int64.min, Int64(timeZone.secondsFromGMT(for: instant)) * 1000))
        let end = Date(timeIntervalSince1970: Double(range.upperBound) / 1000)
        while let next = timeZone.nextDaylightSavingTimeTransition(after: instant), next <= end, offsets.count < 10_000
        {
            instant = next
            let start = Int64((next.timeIntervalSince1970 * 1000).rounded())
            offsets.append((start, Int64(timeZone.secondsFromGMT(for: next)) * 1000))
        }
        self.offsets = offsets
    }

    /// The zone's offset from UTC at `milliseconds`, in milliseconds.
    func offset(at milliseconds: Int64) -> Int64 {
        if offsets.count == 1 { return offsets[0].offset }
        var low = 0
        var high = offsets.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if offsets[middle].start <= milliseconds { low = middle } else { high = middle - 1 }
        }
        return offsets[low].offset
    }

    /// The day `milliseconds` falls on in the zone.
    public func day(of milliseconds: Int64) -> Int64 {
        Self.floorDivide(milliseconds &+ offset(at: milliseconds), 86_400_000)
    }

    /// `YYYY-MM-DD` of a day.
    public static func dateString(_ day: Int64) -> String {
        let (year, month, dayOfMonth) = civil(day)
        let y = String(year)
        let paddedYear = year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - y.count) + y : y
        return paddedYear + "-" + (month < 10 ? "0" : "") + String(month) + "-" + (dayOfMonth < 10 ? "0" : "")
            + String(dayOfMonth)
    }

    /// 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday).
    public static func weekday(_ day: Int64) -> Int {
        Int(((day % 7) + 7 + 3) % 7)
    }

    public static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// (year, month 1–12, day 1–31) of a day since 1970-01-01 (Howard Hinnant's civil_from_days).
    static func civil(_ day: Int64) -> (Int64, Int, Int) {
        let z = day + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let dayOfMonth = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, dayOfMonth)
    }

    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }
}
