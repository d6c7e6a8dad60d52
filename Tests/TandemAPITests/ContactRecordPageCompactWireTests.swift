import Foundation
import TandemAPI
import TandemTesting
import Testing

/// ``ContactRecordPage/init(compactWire:)`` reads exactly what `JSONDecoder` reads whenever it
/// reads anything, and reads every page the server's encoder writes (issue 12 "Figures").
@Suite struct ContactRecordPageCompactWireTests {
    static func randomPage(_ generator: inout some RandomNumberGenerator) -> ContactRecordPage {
        let records = (0..<Int.random(in: 0...20, using: &generator)).map { _ in
            let box = Data((0..<Int.random(in: 0...200, using: &generator)).map { _ in UInt8.random(in: 0...255) })
            let id = String((0..<64).map { _ in "0123456789abcdef".randomElement(using: &generator) ?? "0" })
            let version: Int64 = [0, 1, Int64.random(in: 0...Int64.max, using: &generator)].randomElement() ?? 0
            return ContactRecordEntry(id: id, box: box.base64EncodedString(), version: version)
        }
        return ContactRecordPage(
            records: records, cursor: String(UInt32.random(in: 0...UInt32.max, using: &generator)),
            hasMore: Bool.random(using: &generator))
    }

    static func decoded(_ data: Data) -> ContactRecordPage? {
        try? APIJSON.decoder().decode(ContactRecordPage.self, from: data)
    }

    @Test func everyEncodedPageIsReadAsJSONDecoderReadsIt() throws {
        var generator = SeededRandom(seed: 20_261_127)
        for _ in 0..<300 {
            let data = try APIJSON.encoder().encode(Self.randomPage(&generator))
            let compact = try #require(ContactRecordPage(compactWire: data))
            #expect(compact == Self.decoded(data))
        }
    }

    /// Random damage: the compact reader either declines or agrees with `JSONDecoder`.
    @Test func aDamagedPageIsDeclinedOrReadAsJSONDecoderReadsIt() throws {
        var generator = SeededRandom(seed: 20_261_128)
        let alphabet = Array(#"{}[]",:0123456789 aftrue-+.eE\/=x"#.utf8)
        for _ in 0..<2_000 {
            let bytes = RandomDamage.damaged(
                Array(try APIJSON.encoder().encode(Self.randomPage(&generator))), alphabet: alphabet, using: &generator)
            let data = Data(bytes)
            if let compact = ContactRecordPage(compactWire: data) {
                #expect(compact == Self.decoded(data), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    @Test(arguments: [
        #"{"cursor":"1","hasMore":false,"records":[]}"#,
        #"{"cursor":"12","hasMore":true,"records":[{"box":"","id":"ab","version":0}]}"#,
    ])
    func minimalPagesAreRead(text: String) throws {
        let compact = try #require(ContactRecordPage(compactWire: Data(text.utf8)))
        #expect(compact == Self.decoded(Data(text.utf8)))
    }

    @Test(arguments: [
        #"{"cursor":"1","hasMore":false,"records":[] }"#,
        #"{"hasMore":false,"cursor":"1","records":[]}"#,
        #"{"cursor":"1","hasMore":false,"records":[{"box":"a\/b","id":"ab","version":1}]}"#,
        #"{"cursor":"1","hasMore":false,"records":[{"box":"","id":"ab","version":01}]}"#,
        #"{"cursor":"1","hasMore":false,"records":[{"box":"","id":"ab","version":1.0}]}"#,
        #"{"cursor":"1","hasMore":false,"records":[{"box":"","id":"ab","version":1e0}]}"#,
        #"{"cursor":"1","hasMore":false,"records":[{"box":"","id":"ab","version":9223372036854775808}]}"#,
        #"{"cursor":"1","hasMore":false,"records":[{"box":"","id":"AB","version":1}]}"#,
        #"{"cursor":"1","hasMore":false,"records":[],"extra":1}"#,
        #"{"cursor":"","hasMore":false,"records":[]}"#,
        "",
    ])
    func anythingElseIsLeftToJSONDecoder(text: String) {
        #expect(ContactRecordPage(compactWire: Data(text.utf8)) == nil)
    }
}
