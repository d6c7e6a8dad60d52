import Foundation
import TandemBasics
import Testing

@Suite struct UnixMillisTests {
    @Test func convertsDatesToTheNearestMillisecondAndBack() {
        #expect(UnixMillis(Date(timeIntervalSince1970: 1.0004)) == UnixMillis(1_000))
        #expect(UnixMillis(Date(timeIntervalSince1970: 1.0006)) == UnixMillis(1_001))
        #expect(UnixMillis(Date(timeIntervalSince1970: -0.25)) == UnixMillis(-250))
        #expect(UnixMillis(1_767_225_600_123).date == Date(timeIntervalSince1970: 1_767_225_600.123))
        #expect(UnixMillis(Date.distantFuture).rawValue > 0)
    }

    @Test func datesFarOutsideTheRangeSaturate() {
        #expect(UnixMillis(Date(timeIntervalSince1970: 1e300)) == UnixMillis(.max))
        #expect(UnixMillis(Date(timeIntervalSince1970: -1e300)) == UnixMillis(.min))
    }

    @Test func addingReportsOverflowAsNil() {
        #expect(UnixMillis(0).adding(days: 1) == UnixMillis(86_400_000))
        #expect(UnixMillis(0).adding(days: -2) == UnixMillis(-172_800_000))
        #expect(UnixMillis(5).adding(milliseconds: -10) == UnixMillis(-5))
        #expect(UnixMillis(.max).adding(milliseconds: 1) == nil)
        #expect(UnixMillis(.min).adding(milliseconds: -1) == nil)
        #expect(UnixMillis(0).adding(days: .max) == nil)
        #expect(UnixMillis(0).adding(days: Int64.max / 86_400_000) != nil)
        #expect(UnixMillis(.max - 1_000).adding(days: 1) == nil)
        #expect(UnixMillis(.min + 1_000).adding(days: -1) == nil)
    }

    @Test func millisecondsBetweenInstantsSaturate() {
        #expect(UnixMillis(10).milliseconds(to: UnixMillis(3)) == -7)
        #expect(UnixMillis(.min).milliseconds(to: UnixMillis(.max)) == .max)
        #expect(UnixMillis(.max).milliseconds(to: UnixMillis(.min)) == .min)
    }

    @Test func instantArithmeticTruncatesToWholeMilliseconds() {
        let start = UnixMillis(1_000)
        #expect(start.advanced(by: .seconds(2)) == UnixMillis(3_000))
        #expect(start.advanced(by: .milliseconds(-1_500)) == UnixMillis(-500))
        #expect(start.advanced(by: .microseconds(1_999)) == UnixMillis(1_001))
        #expect(start.advanced(by: .nanoseconds(999_999)) == start)
        #expect(start.duration(to: UnixMillis(4_500)) == .milliseconds(3_500))
        #expect(UnixMillis(4_500).duration(to: start) == .milliseconds(-3_500))
        #expect(start.advanced(by: start.duration(to: UnixMillis(77))) == UnixMillis(77))
    }

    @Test func instantArithmeticSaturatesAtTheEndsOfTime() {
        #expect(UnixMillis(.max - 5).advanced(by: .milliseconds(10)) == UnixMillis(.max))
        #expect(UnixMillis(.min + 5).advanced(by: .milliseconds(-10)) == UnixMillis(.min))
        #expect(UnixMillis(0).advanced(by: .seconds(Int64.max)) == UnixMillis(.max))
        #expect(UnixMillis(0).advanced(by: .seconds(Int64.min)) == UnixMillis(.min))
        #expect(UnixMillis(-1).advanced(by: .seconds(Int64.max / 1000)) == UnixMillis(Int64.max / 1000 * 1000 - 1))
    }

    @Test func ordersAndDescribesByTheMillisecondCount() {
        #expect(UnixMillis(-1) < UnixMillis(0) && UnixMillis(0) < UnixMillis(1))
        #expect(UnixMillis(42).description == "42")
        #expect(
            [UnixMillis(3), UnixMillis(1), UnixMillis(2)].sorted() == [UnixMillis(1), UnixMillis(2), UnixMillis(3)])
    }

    @Test func codesAsABareJSONInteger() throws {
        let encoded = try JSONEncoder().encode([UnixMillis(1_767_225_600_000), UnixMillis(-5)])
        #expect(String(decoding: encoded, as: UTF8.self) == "[1767225600000,-5]")
        #expect(
            try JSONDecoder().decode([UnixMillis].self, from: encoded) == [
                UnixMillis(1_767_225_600_000), UnixMillis(-5),
            ])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(UnixMillis.self, from: Data(#""1970""#.utf8)) }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(UnixMillis.self, from: Data("1.5".utf8)) }
    }

    @Test func theSystemClockReadsTheDeviceTime() async throws {
        let clock = SystemClock()
        let before = UnixMillis(Date())
        let now = clock.now
        #expect(now >= before && now.milliseconds(to: UnixMillis(Date())) >= 0)
        #expect(clock.minimumResolution == .milliseconds(1))
        // A deadline in the past returns at once.
        try await clock.sleep(until: UnixMillis(0))
    }
}
