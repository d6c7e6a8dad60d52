import Foundation
import TandemAPI
import TandemTesting
import Testing

/// ``RedoNodePushResponse/init(compactWire:)`` reads exactly what `JSONDecoder` reads whenever it
/// reads anything, and reads every answer of plain ASCII the server's encoder writes (issue 49
/// item 6).
@Suite struct RedoNodePushResponseCompactWireTests {
    static let messages = [
        "author.publicKey is not a live device key of this account", "Ed25519 verification failed",
        "id does not match the content", "quote \" and \\ backslash", "slash / and zoë", "tab\there", "",
    ]

    static func randomResponse(_ generator: inout some RandomNumberGenerator) -> RedoNodePushResponse {
        let results = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
            let id = String((0..<64).map { _ in "0123456789abcdef".randomElement(using: &generator) ?? "0" })
            let status = [RedoNodePushResult.Status.accepted, .duplicate, .rejected].randomElement(using: &generator)
            let rejected = status == .rejected
            return RedoNodePushResult(
                id: Bool.random(using: &generator) || !rejected ? id : "",
                status: status ?? .accepted,
                code: rejected ? ["INVALID_SIGNATURE", "KEY_NOT_REGISTERED"].randomElement(using: &generator) : nil,
                message: rejected ? messages.randomElement(using: &generator) : nil)
        }
        return RedoNodePushResponse(results: results)
    }

    static func decoded(_ data: Data) -> RedoNodePushResponse? {
        try? APIJSON.decoder().decode(RedoNodePushResponse.self, from: data)
    }

    static func isPlainASCII(_ response: RedoNodePushResponse) -> Bool {
        response.results.allSatisfy { result in
            [result.id, result.code ?? "", result.message ?? ""].allSatisfy { text in
                text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "\"") }
            }
        }
    }

    @Test func everyEncodedAnswerIsReadAsJSONDecoderReadsIt() throws {
        var generator = SeededRandom(seed: 20_261_203)
        var read = 0
        for _ in 0..<400 {
            let response = Self.randomResponse(&generator)
            let data = try APIJSON.encoder().encode(response)
            guard let compact = RedoNodePushResponse(compactWire: data) else {
                // Only an escape or a byte past ASCII is left to JSONDecoder.
                #expect(!Self.isPlainASCII(response), "\(String(decoding: data, as: UTF8.self))")
                continue
            }
            #expect(compact == response)
            #expect(compact == Self.decoded(data))
            read += 1
        }
        // Both kinds of answer are exercised.
        #expect(read > 50 && read < 400)
    }

    /// Random damage: the compact reader either declines or agrees with `JSONDecoder`.
    @Test func aDamagedAnswerIsDeclinedOrReadAsJSONDecoderReadsIt() throws {
        var generator = SeededRandom(seed: 20_261_204)
        let alphabet = Array(#"{}[]",:0123456789 aefnrtu-\/x"#.utf8)
        for _ in 0..<2_000 {
            let bytes = RandomDamage.damaged(
                Array(try APIJSON.encoder().encode(Self.randomResponse(&generator))), alphabet: alphabet,
                using: &generator)
            let data = Data(bytes)
            if let compact = RedoNodePushResponse(compactWire: data) {
                #expect(compact == Self.decoded(data), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    @Test(arguments: [
        #"{"results":[]}"#,
        #"{"results":[{"id":"ab","status":"accepted"},{"id":"cd","status":"duplicate"}]}"#,
        #"{"results":[{"code":"X","id":"","message":"m","status":"rejected"}]}"#,
    ])
    func minimalAnswersAreRead(text: String) throws {
        let compact = try #require(RedoNodePushResponse(compactWire: Data(text.utf8)))
        #expect(compact == Self.decoded(Data(text.utf8)))
    }

    @Test(arguments: [
        #"{"results":[] }"#,
        #"{"results":[{"status":"accepted","id":"ab"}]}"#,
        #"{"results":[{"id":"a\/b","status":"accepted"}]}"#,
        #"{"results":[{"id":"ab","status":"maybe"}]}"#,
        #"{"results":[{"id":"ab","message":"zoë","status":"rejected"}]}"#,
        #"{"results":[{"id":"ab","status":"accepted","extra":1}]}"#,
        #"{"results":[{"id":"ab","status":"accepted"}],"extra":1}"#,
        #"{"results":[{"id":"ab","status":"accepted"}"#,
        "",
    ])
    func anythingElseIsLeftToJSONDecoder(text: String) {
        #expect(RedoNodePushResponse(compactWire: Data(text.utf8)) == nil)
    }
}
