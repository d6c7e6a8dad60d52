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
        guard let page = CompactWireReader.read(data, { $0.page() }) else { return nil }
        self = page
    }
}

extension CompactWireReader {
    fileprivate mutating func page() -> ContactRecordPage? {
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
}
