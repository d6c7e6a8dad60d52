import Foundation
import TandemBasics
import TandemTesting
import Testing

/// Times for people (issue 51 item 7): the reader's zone by default, UTC marked when asked.
@Suite struct HumanTimeTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    static func instant(_ text: String) -> UnixMillis { UnixMillis(iso8601: text)! }

    @Test func localTimeFollowsTheZoneAndItsSummerTime() {
        let local = HumanTime(local: Self.berlin)
        #expect(local.text(Self.instant("2026-11-30T14:05:59.999Z")) == "2026-11-30 15:05")
        #expect(local.text(Self.instant("2026-07-01T14:05:00.000Z")) == "2026-07-01 16:05", "summer time")
        #expect(local.text(Self.instant("2026-12-31T23:30:00.000Z")) == "2027-01-01 00:30", "the next year")
        #expect(HumanTime(local: Self.tokyo).day(Self.instant("2026-11-30T20:00:00.000Z")) == "2026-12-01")
    }

    @Test func utcIsMarkedWhateverTheLocalZone() {
        let utc = HumanTime(utc: true, local: Self.tokyo)
        #expect(utc.text(Self.instant("2026-11-30T14:05:00.000Z")) == "2026-11-30 14:05 UTC")
        #expect(utc.day(Self.instant("2026-11-30T20:00:00.000Z")) == "2026-11-30")
    }

    @Test func aDeadlineAtLocalMidnightIsItsDay() {
        let local = HumanTime(local: Self.berlin)
        // 2026-12-01 typed in Berlin is stored as 23:00 UTC the day before.
        let typed = DateArgument.parse(
            "2026-12-01", now: Self.instant("2026-11-30T14:00:00.000Z"), timeZone: Self.berlin)
        #expect(typed.map(local.deadline) == "2026-12-01")
        #expect(local.deadline(Self.instant("2026-12-01T08:30:00.000Z")) == "2026-12-01 09:30")
        #expect(HumanTime(utc: true, local: Self.berlin).deadline(typed!) == "2026-11-30 23:00 UTC")
        let utcMidnight = Self.instant("2026-12-24T00:00:00.000Z")
        #expect(HumanTime(utc: true, local: Self.berlin).deadline(utcMidnight) == "2026-12-24 00:00 UTC", "marked")
        #expect(HumanTime(local: TimeZone(identifier: "UTC")!).deadline(utcMidnight) == "2026-12-24", "local is UTC")
    }

    @Test func whatIsShownReadsBackAsTheSameMinute() {
        let now = Self.instant("2026-11-30T14:00:00.000Z")
        let time = Self.instant("2026-12-01T08:30:00.000Z")
        for clock in [HumanTime(local: Self.berlin), HumanTime(utc: true, local: Self.berlin)] {
            #expect(
                DateArgument.parse(clock.text(time), now: now, timeZone: Self.berlin) == time, "\(clock.text(time))")
        }
    }

    /// The fields are written straight from the civil date (issue 49 item 2); Foundation's
    /// calendar in the same zone is the reference, for seeded instants and for local midnights.
    @Test func agreesWithFoundationsCalendarInEveryZone() throws {
        var random = SeededRandom(seed: 1649)
        let zones = ["Europe/Berlin", "Asia/Tokyo", "Asia/Kolkata", "America/New_York", "UTC"]
        for name in zones {
            let zone = try #require(TimeZone(identifier: name))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let local = HumanTime(local: zone)
            for index in 0..<400 {
                var instant = UnixMillis(Int64.random(in: 0...4_102_444_800_000, using: &random))
                if index % 2 == 0 {
                    // Half of them at local midnight, where a deadline prints its day alone.
                    let day = calendar.startOfDay(for: Date(timeIntervalSince1970: Double(instant.rawValue) / 1000))
                    instant = UnixMillis(Int64(day.timeIntervalSince1970 * 1000))
                }
                let date = Date(timeIntervalSince1970: (Double(instant.rawValue) + 0.5) / 1000)
                let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
                func padded(_ value: Int?, _ width: Int) -> String {
                    let digits = String(value ?? -1)
                    return String(repeating: "0", count: max(0, width - digits.count)) + digits
                }
                let dayText = "\(padded(parts.year, 4))-\(padded(parts.month, 2))-\(padded(parts.day, 2))"
                let minuteText = "\(dayText) \(padded(parts.hour, 2)):\(padded(parts.minute, 2))"
                #expect(local.text(instant) == minuteText, "\(name) \(instant.rawValue)")
                #expect(local.day(instant) == dayText, "\(name) \(instant.rawValue)")
                let midnight = parts.hour == 0 && parts.minute == 0 && parts.second == 0 && instant.rawValue % 1000 == 0
                #expect(local.deadline(instant) == (midnight ? dayText : minuteText), "\(name) \(instant.rawValue)")
                #expect(HumanTime(utc: true, local: zone).deadline(instant).hasSuffix(" UTC"))
            }
        }
    }

    @Test func theEdgesOfTheCalendarDoNotTrap() {
        let local = HumanTime(local: Self.tokyo)
        #expect(local.text(UnixMillis(Int64.max)) == "9999-12-31 23:59")
        #expect(local.text(UnixMillis(Int64.min)).hasPrefix("0001-01-01"))
    }
}
