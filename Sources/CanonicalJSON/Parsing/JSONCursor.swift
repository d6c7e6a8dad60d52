/// The parser's position in a UTF-8 buffer already checked by `UTF8Check`.
struct JSONCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0
    /// Reused for strings that contain escapes.
    var scratch: [UInt8] = []
    /// When non-nil, the exact value of each top-level member that is a plain non-negative
    /// integer literal fitting `UInt64` (see `JSONParser.parseKeepingIntegers`).
    var topLevelIntegers: [String: UInt64]?
    /// Cleared by anything that makes the text differ from the canonical form of its value:
    /// whitespace, an escape JCS would not write, a number JCS would spell otherwise, members out
    /// of JCS order.
    var isCanonical = true
    /// When non-nil, where each member of the top-level object lies in the text, in text order.
    var topLevelMembers: [MemberSpan]?

    /// When non-nil, the top-level member whose array's elements are noted in `elementSpans`.
    var elementsMember: String?
    /// Set while that member's value is parsed.
    var collectingElements = false
    /// Where each element of `elementsMember`'s array lies, and whether its text was canonical.
    var elementSpans: [ElementSpan] = []

    /// An array element's text (from its first byte to the byte after it) and its form.
    struct ElementSpan {
        let start: Int
        let end: Int
        let isCanonical: Bool
    }

    /// A member's text: its key's opening quote, its value's first byte, and the byte after it.
    struct MemberSpan {
        let start: Int
        let valueStart: Int
        let end: Int
    }

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func skipWhitespace() {
        guard index < bytes.count, Self.isWhitespace(bytes[index]) else { return }
        isCanonical = false
        repeat { index += 1 } while index < bytes.count && Self.isWhitespace(bytes[index])
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    func peek() throws(CanonicalJSONError) -> UInt8 {
        guard index < bytes.count else { throw .unexpectedEnd }
        return bytes[index]
    }

    mutating func parseValue() throws(CanonicalJSONError) -> JSONValue {
        let byte = try peek()
        switch byte {
        case UInt8(ascii: "{"): return .object(try parseObject())
        case UInt8(ascii: "["): return .array(try parseArray())
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw .unexpectedByte(byte, offset: index)
        }
    }

    mutating func expectLiteral(_ literal: StaticString) throws(CanonicalJSONError) {
        let count = literal.utf8CodeUnitCount
        let start = literal.utf8Start
        for offset in 0..<count {
            guard index < bytes.count else { throw .unexpectedEnd }
            guard bytes[index] == start[offset] else { throw .unexpectedByte(bytes[index], offset: index) }
            index += 1
        }
    }

    mutating func enterContainer() throws(CanonicalJSONError) {
        depth += 1
        if depth > maxDepth { throw .nestingTooDeep(limit: maxDepth) }
    }

    mutating func parseArray() throws(CanonicalJSONError) -> [JSONValue] {
        try enterContainer()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return elements
        }
        while true {
            skipWhitespace()
            if collectingElements && depth == 2 {
                // The element's own form: canonical unless something inside it is not.
                let start = index
                let outer = isCanonical
                isCanonical = true
                elements.append(try parseValue())
                elementSpans.append(ElementSpan(start: start, end: index, isCanonical: isCanonical))
                isCanonical = outer && isCanonical
            } else {
                elements.append(try parseValue())
            }
            skipWhitespace()
            let byte = try peek()
            index += 1
            if byte == UInt8(ascii: ",") { continue }
            if byte == UInt8(ascii: "]") { break }
            throw .unexpectedByte(byte, offset: index - 1)
        }
        depth -= 1
        return elements
    }

    mutating func parseObject() throws(CanonicalJSONError) -> JSONObject {
        try enterContainer()
        index += 1
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONObject()
        }
        // Room for a small object's members at once: growing from one slot cost four
        // reallocations for a Redo node's author or payload (issue 29, validation from text).
        // The top-level object (one a parse) gets room for a whole node's members.
        var members: [JSONObject.Member] = []
        members.reserveCapacity(depth == 1 ? 16 : 4)
        while true {
            skipWhitespace()
            let byte = try peek()
            guard byte == UInt8(ascii: "\"") else { throw .unexpectedByte(byte, offset: index) }
            let memberStart = index
            let key = try parseString()
            skipWhitespace()
            let colon = try peek()
            guard colon == UInt8(ascii: ":") else { throw .unexpectedByte(colon, offset: index) }
            index += 1
            skipWhitespace()
            let valueStart = index
            let collects = depth == 1 && elementsMember.map { KeyOrder.bytesEqual($0, key) } == true
            if collects { collectingElements = true }
            let value = try parseValue()
            if collects { collectingElements = false }
            if depth == 1, topLevelIntegers != nil, case .number = value,
                let exact = Self.unsignedInteger(UnsafeBufferPointer(rebasing: bytes[valueStart..<index]))
            {
                topLevelIntegers?[key] = exact
            }
            if depth == 1, topLevelMembers != nil {
                topLevelMembers?.append(MemberSpan(start: memberStart, valueStart: valueStart, end: index))
            }
            members.append(JSONObject.Member(key: key, value: value))
            skipWhitespace()
            let separator = try peek()
            index += 1
            if separator == UInt8(ascii: ",") { continue }
            if separator == UInt8(ascii: "}") { break }
            throw .unexpectedByte(separator, offset: index - 1)
        }
        depth -= 1
        let inOrder = KeyOrder.isSorted(members)
        if !inOrder { isCanonical = false }
        return try JSONObject(members: members, inOrder: inOrder)
    }

    /// The value of a literal made only of decimal digits, without a leading zero unless it is
    /// `0`, when it fits `UInt64`; nil for anything else (sign, fraction, exponent, overflow).
    static func unsignedInteger(_ literal: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !literal.isEmpty, literal.count == 1 || literal[0] != UInt8(ascii: "0") else { return nil }
        var value: UInt64 = 0
        for byte in literal {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
        }
        return value
    }
}
