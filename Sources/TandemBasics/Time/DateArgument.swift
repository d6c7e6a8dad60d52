public import Foundation

/// A date as a person types it on the command line (issue 51 item 10), read in a time zone:
///
/// - `YYYY-MM-DD`: that day's local midnight;
/// - `YYYY-MM-DD HH:MM`, or with ` UTC` after it: the form ``HumanTime`` prints, read back;
/// - `YYYY-MM-DDTHH:MM`, `…:SS`, `…:SS.sss`, each optionally ending in `Z` or `±hh:mm` (without
///   one, local time);
/// - `today`, `tomorrow`: local midnight of that day;
/// - a weekday (`monday`, or `mon`): local midnight of its next occurrence after today.
///
/// Anything else is nil; the caller names the option in its error.
public enum DateArgument {
    public static let accepted =
        "YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS][Z|±hh:mm], YYYY-MM-DD HH:MM [UTC], today, tomorrow or a weekday"

    public static func parse(_ text: String, now: UnixMillis, timeZone: TimeZone) -> UnixMillis? {
        let word = text.trimmingCharacters(in: .whitespaces).lowercased()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let today = calendar.startOfDay(for: Date(timeIntervalSince1970: Double(now.rawValue) / 1000))
        if word == "today" { return millis(today) }
        if word == "tomorrow" { return calendar.date(byAdding: .day, value: 1, to: today).map(millis) }
        if let weekday = weekdays.firstIndex(where: { $0 == word || $0.prefix(3) == word }) {
            // Calendar weekdays run 1 (Sunday) to 7.
            let current = calendar.component(.weekday, from: today)
            let ahead = (weekday + 1 - current + 7) % 7
            return calendar.date(byAdding: .day, value: ahead == 0 ? 7 : ahead, to: today).map(millis)
        }
        return timestamp(shownForm(word).uppercased(), calendar: calendar)
    }

    /// What ``HumanTime`` prints, read back: `YYYY-MM-DD HH:MM` (local) and `… HH:MM UTC` are
    /// the `T` and `Z` forms, so a time copied from Tandem's output can be typed back.
    static func shownForm(_ word: String) -> String {
        var scalars = Array(word.unicodeScalars)
        guard scalars.count >= 16, scalars[10] == " " else { return word }
        scalars[10] = "t"
        var text = String(String.UnicodeScalarView(scalars))
        if text.hasSuffix(" utc") { text = String(text.dropLast(4)) + "z" }
        return text
    }

    static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    static func millis(_ date: Date) -> UnixMillis { UnixMillis(Int64((date.timeIntervalSince1970 * 1000).rounded())) }

    /// The numeric forms, checked field by field (no lenient parsing: `2026-02-30` is nil).
    static func timestamp(_ text: String, calendar: Calendar) -> UnixMillis? {
        let scalars = Array(text.unicodeScalars)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= scalars.count,
                scalars[range].allSatisfy({ ("0"..."9").contains($0) })
            else { return nil }
            return Int(String(String.UnicodeScalarView(scalars[range])))
        }
        guard scalars.count >= 10, scalars[4] == "-", scalars[7] == "-",
            let year = number(0..<4), let month = number(5..<7), let day = number(8..<10)
        else { return nil }
        var parts = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var zone = calendar.timeZone
        var index = 10
        if scalars.count > 10 {
            guard scalars[10] == "T", scalars.count >= 16, scalars[13] == ":",
                let hour = number(11..<13), let minute = number(14..<16)
            else { return nil }
            parts.hour = hour
            parts.minute = minute
            index = 16
            if index < scalars.count, scalars[index] == ":" {
                guard let second = number(17..<19) else { return nil }
                parts.second = second
                index = 19
                if index < scalars.count, scalars[index] == "." {
                    guard let fraction = number(20..<23) else { return nil }
                    parts.nanosecond = fraction * 1_000_000
                    index = 23
                }
            }
            if index < scalars.count {
                if scalars[index] == "Z", index + 1 == scalars.count {
                    zone = TimeZone(secondsFromGMT: 0) ?? zone
                } else if scalars[index] == "+" || scalars[index] == "-", scalars.count == index + 6,
                    scalars[index + 3] == ":", let hours = number(index + 1..<index + 3),
                    let minutes = number(index + 4..<index + 6), hours < 24, minutes < 60
                {
                    let offset = (hours * 3600 + minutes * 60) * (scalars[index] == "-" ? -1 : 1)
                    guard let fixed = TimeZone(secondsFromGMT: offset) else { return nil }
                    zone = fixed
                } else {
                    return nil
                }
            }
        }
        var zoned = calendar
        zoned.timeZone = zone
        parts.timeZone = zone
        guard parts.isValidDate(in: zoned), let date = zoned.date(from: parts) else { return nil }
        return millis(date)
    }
}
