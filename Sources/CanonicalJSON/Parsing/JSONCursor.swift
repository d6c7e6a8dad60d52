/// The parser's position in a UTF-8 buffer already checked by `UTF8Check`.
struct JSONCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    let maxDepth: Int
    var index = 0
    var depth = 0
    /// Reused for strings that contain escapes.
    var scratch: [UInt8] = []

    init(bytes: UnsafeBufferPointer<UInt8>, maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
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
            elements.append(try parseValue())
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
        var members: [JSONObject.Member] = []
        skipWhitespace()
        if try peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return JSONObject()
        }
        while true {
            skipWhitespace()
            let byte = try peek()
            guard byte == UInt8(ascii: "\"") else { throw .unexpectedByte(byte, offset: index) }
            let key = try parseString()
            skipWhitespace()
            let colon = try peek()
            guard colon == UInt8(ascii: ":") else { throw .unexpectedByte(colon, offset: index) }
            index += 1
            skipWhitespace()
            members.append(JSONObject.Member(key: key, value: try parseValue()))
            skipWhitespace()
            let separator = try peek()
            index += 1
            if separator == UInt8(ascii: ",") { continue }
            if separator == UInt8(ascii: "}") { break }
            throw .unexpectedByte(separator, offset: index - 1)
        }
        depth -= 1
        return try JSONObject(members: members)
    }
}
