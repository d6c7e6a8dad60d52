import Foundation
import TandemAPI
import TandemTesting
import Testing

@testable import TandemServer

/// The hand-written get-session JSON and date format agree with Foundation's encoders.
@Suite struct WireJSONTests {
    static let awkwardStrings = [
        "plain", "quote \" and \\ backslash", "slash / and unicode zoë 🙂", "ctl \u{1}\u{8}\u{c}\n\r\t\u{1f}", "",
    ]

    @Test(arguments: awkwardStrings)
    func sessionResponseMatchesJSONEncoderByteForByte(text: String) throws {
        let date = Date(timeIntervalSince1970: 1_767_225_600.123)
        let value = SessionResponse(
            session: AuthSession(
                id: text, token: "tok" + text, userId: "u", expiresAt: date, createdAt: date,
                updatedAt: date.addingTimeInterval(1), ipAddress: nil, userAgent: text),
            user: AuthUser(
                id: "u", name: text, email: "e@example.com", emailVerified: text.isEmpty, image: nil,
                createdAt: date, updatedAt: date, username: text.isEmpty ? nil : text, displayUsername: text))
        let expected = try APIJSON.encoder().encode(value)
        #expect(
            String(decoding: WireJSON.sessionResponse(value), as: UTF8.self)
                == String(decoding: expected, as: UTF8.self))
    }

    @Test(arguments: awkwardStrings)
    func errorBodyMatchesJSONEncoderByteForByte(text: String) throws {
        for body in [
            APIErrorBody(code: .legacyLoginRemoved, message: text), APIErrorBody(code: nil, message: text),
            APIErrorBody(code: .invalidSignature, message: "signature does not verify for the sender's key"),
        ] {
            let expected = try APIJSON.encoder().encode(body)
            #expect(
                String(decoding: WireJSON.errorBody(body), as: UTF8.self) == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test(arguments: awkwardStrings)
    func redoNodePushResponseMatchesJSONEncoderByteForByte(text: String) throws {
        let id = String(repeating: "ab", count: 32)
        for results in [
            [], [RedoNodePushResult(id: id, status: .accepted)],
            [
                RedoNodePushResult(id: id, status: .duplicate),
                RedoNodePushResult(id: text, status: .rejected, code: "INVALID_SIGNATURE", message: text),
                RedoNodePushResult(id: "", status: .rejected, code: nil, message: text),
                RedoNodePushResult(id: id, status: .rejected, code: text, message: nil),
            ],
        ] {
            let response = RedoNodePushResponse(results: results)
            let expected = try APIJSON.encoder().encode(response)
            #expect(
                String(decoding: WireJSON.redoNodePushResponse(response), as: UTF8.self)
                    == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test(arguments: [0.0, 1.0, 951_782_400.5, 1_767_225_599.25, 4_102_444_800.125, -86_400.25, 253_402_300_799.0])
    /// Binary-exact fractions, so Foundation's truncation and our rounding agree.
    func millisecondDatesMatchFoundationsISO8601Format(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let foundation = date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt))
        #expect(APIJSON.formatDate(date) == foundation)
    }

    @Test func formattedDatesParseBackToTheSameMillisecond() throws {
        var generator = SeededRandom(seed: 20_261_127)
        for _ in 0..<200 {
            let millis = Int64.random(in: 0...4_102_444_800_000, using: &generator)
            let date = Date(timeIntervalSince1970: Double(millis) / 1000)
            let parsed = try #require(APIJSON.parseDate(APIJSON.formatDate(date)))
            #expect(Int64((parsed.timeIntervalSince1970 * 1000).rounded()) == millis)
        }
    }
}

/// The comparison behind password verification: equal only for equal length and bytes.
@Suite struct ConstantTimeTests {
    @Test(arguments: [
        ([UInt8](), [UInt8](), true), ([1, 2, 3], [1, 2, 3], true), ([1, 2, 3], [1, 2, 4], false),
        ([0, 2, 3], [1, 2, 3], false), ([1, 2], [1, 2, 3], false), ([255], [0], false),
    ])
    func equalityMatchesArrayEquality(lhs: [UInt8], rhs: [UInt8], equal: Bool) {
        #expect(ConstantTime.equal(lhs, rhs) == equal)
        #expect(ConstantTime.equal(lhs, rhs) == (lhs == rhs))
    }
}
