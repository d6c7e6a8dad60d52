import Foundation
import TandemServerStore

/// A page of `GET /api/contacts/records` or `GET /api/tasks/presets` written directly as bytes (issue 12 "Figures": encoding a
/// 1,000-record page with `JSONEncoder` was most of the server's share of a full contacts sync).
/// The text is exactly what `APIJSON.encoder()` writes for a `ContactRecordPage` — sorted keys,
/// unescaped slashes — and a test compares the two.
extension WireJSON {
    static func sealedRecordPage(_ records: [StoredSealedRecord], cursor: String, hasMore: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(records.reduce(64) { $0 + $1.box.count * 4 / 3 + $1.id.utf8.count + 48 })
        out.append(contentsOf: #"{"cursor":"#.utf8)
        string(cursor, &out)
        out.append(contentsOf: #","hasMore":"#.utf8)
        out.append(contentsOf: (hasMore ? "true" : "false").utf8)
        out.append(contentsOf: #","records":["#.utf8)
        for (index, record) in records.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            // Base64 is `A-Z a-z 0-9 + / =`: nothing in it is escaped once slashes are not.
            out.append(contentsOf: #"{"box":""#.utf8)
            out.append(contentsOf: record.box.base64EncodedString().utf8)
            out.append(contentsOf: #"","id":"#.utf8)
            string(record.id, &out)
            out.append(contentsOf: #","version":"#.utf8)
            out.append(contentsOf: String(record.version).utf8)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return out
    }
}
