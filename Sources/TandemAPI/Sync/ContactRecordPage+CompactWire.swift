public import Foundation

/// Reading `GET /api/contacts/records` without `JSONDecoder` when the page is in exactly the form
/// the server writes (issue 12 "Figures": decoding ten 1,000-record pages was a twentieth of a
/// full contacts sync): no whitespace, members in sorted order, a decimal cursor, base64 boxes,
/// lowercase hex ids, and versions written as plain decimal integers that fit `Int64`.
///
/// For such a text `JSONDecoder` reads the same page: it is valid JSON with no repeated member,
/// no escape, and integers that fit `Int64`. Anything else — whitespace, another order, an
/// escape, an unknown member, an exponent — gives nil, and the caller decodes with `JSONDecoder`,
/// which accepts or rejects it exactly as before. `ContactRecordPageCompactWireTests` checks the
/// two agree on random and mutated pages.
extension ContactRecordPage {
    public init?(compactWire data: Data) {
        guard
            let page = data.withUnsafeBytes({ raw -> ContactRecordPage? in
                var reader = CompactReader(bytes: raw.bindMemory(to: UInt8.self))
                return reader.page()
            })
        else { return nil }
        self = page
    }
}

extension ContactRecordPage {
    /// A cursor over the page's bytes; every read returns nil (or false) at the first byte that is
    /// not the expected one.
    fileprivate struct CompactReader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func page() -> ContactRecordPage? {
            guard literal(#"{"cursor":""#), let cursor = run(while: Self.isDigit), !cursor.isEmpty,
                literal(#"","hasMore":"#)
            else { return nil }
            let hasMore: Bool
            if literal("true") {
                hasMore = true
            } else if literal("false") {
                hasMore = false
            } else {
                return nil
            }
            guard literal(#","records":["#) else { return nil }
            var records: [ContactRecordEntry] = []
            if !literal("]") {
                repeat {
                    guard let record = record() else { return nil }
                    records.append(record)
                } while literal(",")
                guard literal("]") else { return nil }
            }
            guard literal("}"), index == bytes.count else { return nil }
            return ContactRecordPage(records: records, cursor: cursor, hasMore: hasMore)
        }

        private mutating func record() -> ContactRecordEntry? {
            guard literal(#"{"box":""#), let box = run(while: Self.isBase64), literal(#"","id":""#),
                let id = run(while: Self.isLowercaseHex), !id.isEmpty, literal(#"","version":"#),
                let digits = run(while: Self.isDigit), !digits.isEmpty, digits.utf8.count <= 19,
                digits == "0" || !digits.hasPrefix("0"), let version = Int64(digits), literal("}")
            else { return nil }
            return ContactRecordEntry(id: id, box: box, version: version)
        }

        /// Consumes `text` when the bytes at the cursor are exactly its UTF-8.
        private mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            let start = index
            let matches = text.withUTF8Buffer { expected in
                expected.indices.allSatisfy { bytes[start + $0] == expected[$0] }
            }
            if matches { index += count }
            return matches
        }

        /// The ASCII run of bytes that pass `accept`, up to the closing quote or the next byte.
        private mutating func run(while accept: (UInt8) -> Bool) -> String? {
            let start = index
            while index < bytes.count, accept(bytes[index]) { index += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

        static func isLowercaseHex(_ byte: UInt8) -> Bool {
            isDigit(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
        }

        static func isBase64(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: "="):
                true
            default: false
            }
        }
    }
}
