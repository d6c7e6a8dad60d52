/// The one text form of a time in Tandem: `YYYY-MM-DDTHH:mm:ss.sssZ`, UTC, exactly 24 ASCII
/// characters (Redo spec §2 `timestamp.wall`, the BetterAuth wire dates of betterauth-api §1).
///
/// Fixed width keeps byte order and time order the same (Redo spec §7.1). Written and parsed by
/// civil-date arithmetic, without a formatter object: the server writes several dates per
/// get-session answer and the Redo validator parses one per node.
extension UnixMillis {
    /// The earliest and latest instants the format can write (years 0001…9999).
    public static let earliestISO8601 = UnixMillis(-62_135_596_800_000)
    public static let latestISO8601 = UnixMillis(253_402_300_799_999)

    /// Whether ``iso8601`` can write this instant.
    public var isWithinISO8601Range: Bool { self >= Self.earliestISO8601 && self <= Self.latestISO8601 }

    /// `YYYY-MM-DDTHH:mm:ss.sssZ`. Instants outside years 0001…9999 are clamped to that range,
    /// so the text always has the fixed width; check ``isWithinISO8601Range`` where it matters.
    public var iso8601: String { iso8601Text(length: 24, separator: UInt8(ascii: "T"), suffix: "") }

    /// The first `length` (at most 24) characters of ``iso8601``, with `separator` in place of its
    /// `T` and `suffix` after them: how ``HumanTime`` writes `YYYY-MM-DD HH:MM` without making the
    /// whole text and cutting it (issue 49 item 2: a list writes one per row).
    func iso8601Text(length: Int, separator: UInt8, suffix: StaticString) -> String {
        let millis = min(max(self, Self.earliestISO8601), Self.latestISO8601).rawValue
        var days = millis / 86_400_000
        var rest = millis % 86_400_000
        if rest < 0 {
            rest += 86_400_000
            days -= 1
        }
        let (year, month, day) = CivilDate.civil(fromDaysSinceEpoch: days)
        let secondsOfDay = rest / 1000
        let length = min(max(length, 0), 24)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { whole in
            var position = 0
            func put(_ value: Int64, _ width: Int, then separator: UInt8) {
                var remaining = value
                for index in stride(from: position + width - 1, through: position, by: -1) {
                    whole[index] = UInt8(ascii: "0") + UInt8(remaining % 10)
                    remaining /= 10
                }
                whole[position + width] = separator
                position += width + 1
            }
            put(year, 4, then: UInt8(ascii: "-"))
            put(month, 2, then: UInt8(ascii: "-"))
            put(day, 2, then: separator)
            put(secondsOfDay / 3600, 2, then: UInt8(ascii: ":"))
            put(secondsOfDay / 60 % 60, 2, then: UInt8(ascii: ":"))
            put(secondsOfDay % 60, 2, then: UInt8(ascii: "."))
            put(rest % 1000, 3, then: UInt8(ascii: "Z"))
            return String(unsafeUninitializedCapacity: length + suffix.utf8CodeUnitCount) { out in
                _ = out.initialize(fromContentsOf: whole[..<length])
                suffix.withUTF8Buffer { tail in _ = out[length...].initialize(fromContentsOf: tail) }
                return length + suffix.utf8CodeUnitCount
            }
        }
    }

    private static let separators: [(Int, UInt8)] = [
        (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")),
        (16, UInt8(ascii: ":")), (19, UInt8(ascii: ".")), (23, UInt8(ascii: "Z")),
    ]

    /// Parses exactly `YYYY-MM-DDTHH:mm:ss.sssZ`; nil for any other shape and for impossible
    /// instants (February 30, hour 24, second 60, year 0000).
    public init?(iso8601 text: some StringProtocol) {
        // In place when the text is contiguous (a parsed node's `wall` is): copying it into an
        // array first was most of the parse (issue 29, validation from text).
        let milliseconds =
            text.utf8.withContiguousStorageIfAvailable(Self.milliseconds(iso8601:))
            ?? Array(text.utf8).withUnsafeBufferPointer(Self.milliseconds(iso8601:))
        guard let milliseconds else { return nil }
        self.init(milliseconds)
    }

    private static func milliseconds(iso8601 utf8: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard utf8.count == 24 else { return nil }
        func number(_ start: Int, _ length: Int) -> Int64? {
            var value: Int64 = 0
            for position in start..<(start + length) {
                let byte = utf8[position]
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            }
            return value
        }
        for (position, separator) in separators where utf8[position] != separator { return nil }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            let millisecond = number(20, 3)
        else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        let days = CivilDate.daysSinceEpoch(year: year, month: month, day: day)
        return (days * 86_400 + hour * 3600 + minute * 60 + second) * 1000 + millisecond
    }
}

/// Proleptic Gregorian calendar arithmetic on day counts (days since 1970-01-01), with
/// March-based years so the leap day is the last day of a year (Hinnant's algorithms).
enum CivilDate {
    static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDaysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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
