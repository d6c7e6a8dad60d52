import Foundation
import TandemTesting
import Testing

@testable import RedoApp

@Suite struct DayCalendarTests {
    /// Foundation's Gregorian calendar in the same zone, the independent reference.
    static func reference(_ milliseconds: Int64, _ zone: TimeZone) -> (day: String, weekday: Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
        let text = String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        // Foundation: 1 = Sunday … 7 = Saturday; ours: 0 = Monday … 6 = Sunday.
        return (text, ((parts.weekday ?? 1) + 5) % 7)
    }

    @Test(
        "days and weekdays agree with Foundation's calendar across DST changes",
        arguments: ["UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Apia"])
    func agreesWithFoundation(zoneName: String) throws {
        let zone = try #require(TimeZone(identifier: zoneName))
        var random = SeededRandom(seed: 27)
        let start: Int64 = 1_577_836_800_000  // 2020-01-01
        let end: Int64 = 1_830_297_600_000  // 2028-01-01
        let calendar = DayCalendar(timeZone: zone, covering: start...end)
        var instants = (0..<2_000).map { _ in Int64.random(in: start...end, using: &random) }
        // Around every transition, the minutes either side.
        var probe = Date(timeIntervalSince1970: Double(start) / 1000)
        while let next = zone.nextDaylightSavingTimeTransition(after: probe),
            next.timeIntervalSince1970 * 1000 < Double(end)
        {
            let at = Int64(next.timeIntervalSince1970 * 1000)
            instants += [at - 60_000, at - 1, at, at + 1, at + 60_000]
            probe = next
        }
        for instant in instants {
            let day = calendar.day(of: instant)
            let expected = Self.reference(instant, zone)
            #expect(DayCalendar.dateString(day) == expected.day, "\(zoneName) at \(instant)")
            #expect(DayCalendar.weekday(day) == expected.weekday, "\(zoneName) at \(instant)")
        }
    }

    @Test func datesBeforeTheEpochAndFarAhead() {
        #expect(DayCalendar.dateString(-1) == "1969-12-31")
        #expect(DayCalendar.dateString(0) == "1970-01-01")
        #expect(DayCalendar.dateString(11_016) == "2000-02-29")
        #expect(DayCalendar.dateString(2_932_896) == "9999-12-31")
        #expect(DayCalendar.dateString(-719_162) == "0001-01-01")
        #expect(DayCalendar.weekday(0) == 3)  // a Thursday
        #expect(DayCalendar.weekday(-1) == 2)
    }
}
