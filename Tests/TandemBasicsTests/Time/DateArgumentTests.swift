import Foundation
import TandemBasics
import Testing

/// Dates as people type them (issue 51 item 10), in a fixed zone and at a fixed now.
@Suite struct DateArgumentTests {
    static let berlin = TimeZone(identifier: "Europe/Berlin")!
    /// Monday 2026-11-30, 14:00 UTC (15:00 in Berlin).
    static let now = UnixMillis(iso8601: "2026-11-30T14:00:00.000Z")!

    static func parsed(_ text: String, zone: TimeZone = berlin) -> String? {
        DateArgument.parse(text, now: now, timeZone: zone)?.iso8601
    }

    @Test func numericFormsAreLocalUnlessTheyNameAZone() {
        #expect(Self.parsed("2026-12-01") == "2026-11-30T23:00:00.000Z", "local midnight")
        #expect(Self.parsed("2026-12-01", zone: TimeZone(secondsFromGMT: 0)!) == "2026-12-01T00:00:00.000Z")
        #expect(Self.parsed("2026-07-01") == "2026-06-30T22:00:00.000Z", "summer time")
        #expect(Self.parsed("2026-12-01T09:30") == "2026-12-01T08:30:00.000Z")
        #expect(Self.parsed("2026-12-01T09:30Z") == "2026-12-01T09:30:00.000Z")
        #expect(Self.parsed("2026-12-01T09:30:15+02:00") == "2026-12-01T07:30:15.000Z")
        #expect(Self.parsed("2026-12-01T09:30:15-05:30") == "2026-12-01T15:00:15.000Z")
        #expect(Self.parsed("2026-12-01T09:30:15.250Z") == "2026-12-01T09:30:15.250Z")
    }

    @Test func wordsCountFromNowInTheZone() {
        #expect(Self.parsed("today") == "2026-11-29T23:00:00.000Z")
        #expect(Self.parsed("Tomorrow") == "2026-11-30T23:00:00.000Z")
        #expect(Self.parsed("tuesday") == "2026-11-30T23:00:00.000Z")
        #expect(Self.parsed("fri") == "2026-12-03T23:00:00.000Z")
        #expect(Self.parsed("monday") == "2026-12-06T23:00:00.000Z", "today is Monday: the next one")
    }

    @Test(arguments: [
        "", "next week", "2026-02-30", "2026-13-01", "2026-12-01T25:00", "2026-12-01T09:60", "2026-12-01T09:30+2",
        "2026-12-01T09:30:15.2Z", "2026-12-01  09:30", "2026-12-01 09:30 CET", "20261201", "2026-12-01T09:30ZZ", "mo",
    ])
    func anythingElseIsRefused(_ text: String) {
        #expect(Self.parsed(text) == nil)
    }
}
