/// A UTC instant in the protocol's one timestamp format, `YYYY-MM-DDTHH:mm:ss.sssZ` (spec §2
/// `timestamp.wall`; payload timestamps too, RES-5).
///
/// Kept as milliseconds since the Unix epoch: the text is fixed-width ASCII, so byte order of the
/// text and numeric order agree (spec §7.1), and arithmetic (SNOOZE, ranking) needs the number.
public struct WallTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let millisecondsSinceEpoch: Int64

    /// The range of 4-digit years the format can express (years 1…9999).
    static let earliest: Int64 = -62_135_596_800_000
    static let latest: Int64 = 253_402_300_799_999

    private static let separators: [(Int, UInt8)] = [
        (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")),
        (16, UInt8(ascii: ":")), (19, UInt8(ascii: ".")), (23, UInt8(ascii: "Z")),
    ]

    /// Parses the exact format and rejects impossible instants (Feb 30, hour 24, second 60).
    public init?(_ text: String) {
        var copy = text
        let parsed: Int64? = copy.withUTF8 { utf8 in
            guard utf8.count == 24 else { return nil }
            func number(_ start: Int, _ length: Int) -> Int? {
                var value = 0
                for position in start..<(start + length) {
                    let byte = utf8[position]
                    guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                }
                return value
            }
            for (position, separator) in Self.separators where utf8[position] != separator {
                return nil
            }
            guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
                  let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
                  let millisecond = number(20, 3)
            else { return nil }
            guard year >= 1, (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
                  hour <= 23, minute <= 59, second <= 59
            else { return nil }
            let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
            let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
            return seconds * 1000 + Int64(millisecond)
        }
        guard let parsed else { return nil }
        millisecondsSinceEpoch = parsed
    }

    /// An instant within years 1…9999; nil outside what the format can write.
    public init?(millisecondsSinceEpoch value: Int64) {
        guard value >= Self.earliest && value <= Self.latest else { return nil }
        millisecondsSinceEpoch = value
    }

    /// The instant `days` × 86 400 s later, or nil when it leaves the format's range (RES-10).
    public func adding(days: Int64) -> WallTime? {
        let (delta, overflow) = days.multipliedReportingOverflow(by: 86_400_000)
        guard !overflow else { return nil }
        let (sum, overflowSum) = millisecondsSinceEpoch.addingReportingOverflow(delta)
        guard !overflowSum else { return nil }
        return WallTime(millisecondsSinceEpoch: sum)
    }

    public var description: String {
        let millis = millisecondsSinceEpoch
        var days = millis / 86_400_000
        var rest = millis % 86_400_000
        if rest < 0 {
            rest += 86_400_000
            days -= 1
        }
        let (year, month, day) = CivilDate.civil(fromDaysSinceEpoch: Int(days))
        let secondsOfDay = Int(rest / 1000)
        var out: [UInt8] = []
        out.reserveCapacity(24)
        func put(_ value: Int, _ width: Int) {
            var digits = [UInt8](repeating: UInt8(ascii: "0"), count: width)
            var remaining = value
            for index in stride(from: width - 1, through: 0, by: -1) {
                digits[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
                remaining /= 10
            }
            out.append(contentsOf: digits)
        }
        put(year, 4); out.append(UInt8(ascii: "-"))
        put(month, 2); out.append(UInt8(ascii: "-"))
        put(day, 2); out.append(UInt8(ascii: "T"))
        put(secondsOfDay / 3600, 2); out.append(UInt8(ascii: ":"))
        put(secondsOfDay / 60 % 60, 2); out.append(UInt8(ascii: ":"))
        put(secondsOfDay % 60, 2); out.append(UInt8(ascii: "."))
        put(Int(rest % 1000), 3); out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    public static func < (lhs: WallTime, rhs: WallTime) -> Bool {
        lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
    }
}

/// Proleptic Gregorian calendar arithmetic on day counts (days since 1970-01-01).
enum CivilDate {
    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Counts days with March-based years so the leap day is the last day of a year.
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDaysSinceEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
