import Foundation
import TandemAPI
import TandemTesting
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// The hand-written contact record page (issue 12 "Figures") is the text `APIJSON.encoder()`
/// writes for the same `ContactRecordPage`, byte for byte.
@Suite struct ContactRecordPageJSONTests {
    static func expected(_ records: [StoredSealedRecord], cursor: String, hasMore: Bool) throws -> String {
        let page = ContactRecordPage(
            records: records.map {
                ContactRecordEntry(id: $0.id, box: $0.box.base64EncodedString(), version: $0.version)
            },
            cursor: cursor, hasMore: hasMore)
        return String(decoding: try APIJSON.encoder().encode(page), as: UTF8.self)
    }

    @Test(arguments: [0, 1, 3, 200])
    func randomPagesMatchJSONEncoder(count: Int) throws {
        var generator = SeededRandom(seed: 20_261_127)
        let records = (0..<count).map { index in
            StoredSealedRecord(
                seq: Int64(index), id: String(repeating: "ab", count: 32),
                box: Data(
                    (0..<Int.random(in: 1...600, using: &generator)).map { _ in
                        UInt8.random(in: 0...255, using: &generator)
                    }),
                version: Int64.random(in: 0...Int64.max, using: &generator))
        }
        for hasMore in [false, true] {
            let cursor = String(count * 7)
            #expect(
                String(decoding: WireJSON.sealedRecordPage(records, cursor: cursor, hasMore: hasMore), as: UTF8.self)
                    == (try Self.expected(records, cursor: cursor, hasMore: hasMore)))
        }
    }

    /// Boxes whose base64 holds `/` and `+`, and ids and cursors that need escaping.
    @Test(arguments: WireJSONTests.awkwardStrings)
    func awkwardTextsMatchJSONEncoder(text: String) throws {
        let records = [
            StoredSealedRecord(seq: 1, id: text, box: Data([0xFF, 0xEF, 0xBE, 0xFB]), version: 0),
            StoredSealedRecord(seq: 2, id: "x", box: Data(repeating: 0xFC, count: 9), version: -1),
        ]
        #expect(
            String(decoding: WireJSON.sealedRecordPage(records, cursor: text, hasMore: true), as: UTF8.self)
                == (try Self.expected(records, cursor: text, hasMore: true)))
    }
}
