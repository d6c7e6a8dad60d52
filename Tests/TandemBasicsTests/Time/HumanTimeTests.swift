import Foundation
import TandemBasics
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

    @Test func theEdgesOfTheCalendarDoNotTrap() {
        let local = HumanTime(local: Self.tokyo)
        #expect(local.text(UnixMillis(Int64.max)) == "9999-12-31 23:59")
        #expect(local.text(UnixMillis(Int64.min)).hasPrefix("0001-01-01"))
    }
}
