import Foundation
import TandemBasics
import TandemTesting
import Testing

/// `UnixMillis.iso8601` is the one text form of a time (Redo spec §2 `timestamp.wall`,
/// betterauth-api §1): it must agree with Foundation wherever both can write the instant.
@Suite struct UnixMillisISO8601Tests {
    static let foundationStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    @Test func writesAndReadsTheUnixEpochAndTheRangeEnds() {
        #expect(UnixMillis(0).iso8601 == "1970-01-01T00:00:00.000Z")
        #expect(UnixMillis(-1).iso8601 == "1969-12-31T23:59:59.999Z")
        #expect(UnixMillis.earliestISO8601.iso8601 == "0001-01-01T00:00:00.000Z")
        #expect(UnixMillis.latestISO8601.iso8601 == "9999-12-31T23:59:59.999Z")
        #expect(UnixMillis(iso8601: "0001-01-01T00:00:00.000Z") == .earliestISO8601)
        #expect(UnixMillis(iso8601: "9999-12-31T23:59:59.999Z") == .latestISO8601)
        #expect(UnixMillis(iso8601: "2024-02-29T12:34:56.789Z") == UnixMillis(1_709_210_096_789))
    }

    /// Foundation's Gregorian calendar switches to Julian before 1582-10-15, so Foundation is
    /// the reference from then on; earlier instants are checked by round trip and by day count.
    @Test func agreesWithFoundationForSeededRandomInstants() throws {
        var random = SeededRandom(seed: 8601)
        let gregorianStart: Int64 = -12_219_292_800_000  // 1582-10-15T00:00:00.000Z
        for index in 0..<5_000 {
            let low = index % 2 == 0 ? UnixMillis.earliestISO8601.rawValue : gregorianStart
            let instant = UnixMillis(Int64.random(in: low...UnixMillis.latestISO8601.rawValue, using: &random))
            let text = instant.iso8601
            #expect(text.utf8.count == 24)
            #expect(UnixMillis(iso8601: text) == instant)
            guard instant.rawValue >= gregorianStart else { continue }
            // Foundation truncates to the millisecond and a `Date` is a binary fraction: hand it
            // the middle of the millisecond so its truncation lands on the same one.
            let middle = Date(timeIntervalSince1970: (Double(instant.rawValue) + 0.5) / 1000)
            #expect(text == middle.formatted(Self.foundationStyle), "\(instant.rawValue)")
            let parsed = try Self.foundationStyle.parse(text)
            #expect(UnixMillis(parsed) == instant, "\(text)")
        }
    }

    @Test func textOrderIsTimeOrder() {
        var random = SeededRandom(seed: 71)
        let range = UnixMillis.earliestISO8601.rawValue...UnixMillis.latestISO8601.rawValue
        for _ in 0..<1_000 {
            let a = UnixMillis(Int64.random(in: range, using: &random))
            let b = UnixMillis(Int64.random(in: range, using: &random))
            #expect((a < b) == (a.iso8601 < b.iso8601))
        }
    }

    @Test func consecutiveDaysAcrossLeapYearsAndCenturies() throws {
        // Every day of 1899-12-25 … 2401-01-05 (leap rules of 1900, 2000, 2100, 2400).
        var instant = try #require(UnixMillis(iso8601: "1899-12-25T00:00:00.000Z"))
        let end = try #require(UnixMillis(iso8601: "2401-01-05T00:00:00.000Z"))
        var previous = instant.iso8601
        while instant < end {
            instant = try #require(instant.adding(days: 1))
            let text = instant.iso8601
            #expect(UnixMillis(iso8601: text) == instant)
            #expect(text > previous)
            previous = text
        }
        #expect(UnixMillis(iso8601: "1900-02-29T00:00:00.000Z") == nil)
        #expect(UnixMillis(iso8601: "2000-02-29T00:00:00.000Z") != nil)
        #expect(UnixMillis(iso8601: "2100-02-29T00:00:00.000Z") == nil)
        #expect(UnixMillis(iso8601: "2400-02-29T00:00:00.000Z") != nil)
    }

    @Test(arguments: [
        // Impossible instants
        "2025-02-29T00:00:00.000Z", "2024-02-30T00:00:00.000Z", "2025-04-31T00:00:00.000Z",
        "2025-13-01T00:00:00.000Z", "2025-00-10T00:00:00.000Z", "2025-01-00T00:00:00.000Z",
        "2025-01-32T00:00:00.000Z", "2025-01-01T24:00:00.000Z", "2025-01-01T23:60:00.000Z",
        "2025-01-01T23:59:60.000Z", "0000-01-01T00:00:00.000Z",
        // Other shapes
        "", "2025-01-01", "2025-01-01T00:00:00Z", "2025-01-01T00:00:00.00Z", "2025-01-01T00:00:00.0000Z",
        "2025-01-01t00:00:00.000Z", "2025-01-01T00:00:00.000z", "2025-01-01 00:00:00.000Z",
        "2025/01/01T00:00:00.000Z", "2025-01-01T00:00:00,000Z", "2025-01-01T00:00:00.000+00:00",
        "+025-01-01T00:00:00.000Z", "-025-01-01T00:00:00.000Z", "2025-1-01T00:00:00.000ZZ",
        "2025-01-01T00:00:00.000Z ", " 2025-01-01T00:00:00.000Z", "202a-01-01T00:00:00.000Z",
        "2025-01-01T0a:00:00.000Z", "2025-01-01T00:00:00.0a0Z", "٢٠٢٥-01-01T00:00:00.000Z",
        "10000-01-01T00:00:00.000Z",
    ])
    func rejectsImpossibleDatesAndOtherShapes(text: String) {
        #expect(UnixMillis(iso8601: text) == nil)
    }

    @Test func clampsInstantsOutsideTheFourDigitYears() {
        #expect(!UnixMillis(.max).isWithinISO8601Range && !UnixMillis(.min).isWithinISO8601Range)
        #expect(UnixMillis(.max).iso8601 == "9999-12-31T23:59:59.999Z")
        #expect(UnixMillis(.min).iso8601 == "0001-01-01T00:00:00.000Z")
        #expect(UnixMillis.latestISO8601.isWithinISO8601Range)
        #expect(!UnixMillis(UnixMillis.latestISO8601.rawValue + 1).isWithinISO8601Range)
        #expect(!UnixMillis(UnixMillis.earliestISO8601.rawValue - 1).isWithinISO8601Range)
    }
}
