public import Foundation

/// `yyyy-MM-ddTHH:mm:ss.SSSZ` (UTC, to the nearest millisecond, the stored precision) by
/// civil-date arithmetic: the wire's
/// date format (betterauth-api.md §1) without a formatter object, because get-session writes
/// five dates per answer on the server's hottest path.
public enum ISO8601Millis {
    public static func string(from date: Date) -> String {
        let millis = Int64((date.timeIntervalSince1970 * 1000).rounded())
        var days = millis >= 0 ? millis / 86_400_000 : (millis - 86_399_999) / 86_400_000
        let msOfDay = millis - days * 86_400_000
        // Days since 1970-01-01 to a proleptic Gregorian civil date (Hinnant's algorithm).
        days += 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)

        var out: [UInt8] = []
        out.reserveCapacity(24)
        append(year, width: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        append(month, width: 2, to: &out)
        out.append(UInt8(ascii: "-"))
        append(day, width: 2, to: &out)
        out.append(UInt8(ascii: "T"))
        append(msOfDay / 3_600_000, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(msOfDay / 60_000 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: ":"))
        append(msOfDay / 1000 % 60, width: 2, to: &out)
        out.append(UInt8(ascii: "."))
        append(msOfDay % 1000, width: 3, to: &out)
        out.append(UInt8(ascii: "Z"))
        return String(decoding: out, as: UTF8.self)
    }

    private static func append(_ value: Int64, width: Int, to out: inout [UInt8]) {
        var digits: [UInt8] = []
        var rest = value < 0 ? -value : value
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        if value < 0 { out.append(UInt8(ascii: "-")) }
        for _ in digits.count..<max(width, digits.count) { out.append(UInt8(ascii: "0")) }
        out.append(contentsOf: digits.reversed())
    }
}
