import TandemBasics

/// A cursor over the bytes of one JSON frame, for readers that walk a frame once instead of going
/// through `JSONDecoder` (``UtxosChangedReader``).
///
/// It reads RFC 8259 JSON and is stricter than `JSONDecoder` wherever the two differ, so that what
/// it reads `JSONDecoder` reads the same; anything else is a ``UtxosChangedReaderError`` and goes to
/// the general reader. In particular it refuses strings holding any non-ASCII byte or escape (the
/// node writes addresses, hex and member names only), numbers with a sign, a fraction or an exponent
/// where it reads an integer, trailing commas, and nesting deeper than ``maximumDepth``.
///
/// Every read checks its bounds first: no input traps, and what stops a read is a typed error with
/// the offset of the byte it stopped at.
struct FrameScanner {
    /// Deeper than any node frame nests; `JSONDecoder` stops at 512.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private(set) var offset = 0
    /// True between the `{` or `[` of a container and its first member or element.
    private var atContainerStart = false

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    // MARK: Structure

    /// Reads the `{` of an object; its members follow from ``nextMember()``.
    mutating func enterObject() throws(UtxosChangedReaderError) {
        try expect(UInt8(ascii: "{"), "an object")
        atContainerStart = true
    }

    /// The name of the next member, with its `:` read; nil once the object's `}` is read.
    mutating func nextMember() throws(UtxosChangedReaderError) -> MemberName? {
        guard try nextItem(closedBy: UInt8(ascii: "}")) else { return nil }
        let name = try string()
        try expect(UInt8(ascii: ":"), "':' after a member name")
        return MemberName(bytes: name)
    }

    /// Reads the `[` of an array; its elements follow while ``nextElement()`` is true.
    mutating func enterArray() throws(UtxosChangedReaderError) {
        try expect(UInt8(ascii: "["), "an array")
        atContainerStart = true
    }

    /// True when another element follows; false once the array's `]` is read.
    mutating func nextElement() throws(UtxosChangedReaderError) -> Bool {
        try nextItem(closedBy: UInt8(ascii: "]"))
    }

    /// Only whitespace may follow the frame's value.
    mutating func expectEnd() throws(UtxosChangedReaderError) {
        skipWhitespace()
        guard offset == bytes.count else { throw refusal(.unexpected(expected: "the end of the frame")) }
    }

    /// Reads a `,` before an item, or the closing byte: true when an item follows.
    private mutating func nextItem(closedBy close: UInt8) throws(UtxosChangedReaderError) -> Bool {
        skipWhitespace()
        if atContainerStart {
            atContainerStart = false
            if bytes.indices.contains(offset) && bytes[offset] == close {
                offset += 1
                return false
            }
            return true
        }
        guard bytes.indices.contains(offset) else { throw refusal(.unexpected(expected: "',' or the container's end")) }
        switch bytes[offset] {
        case UInt8(ascii: ","):
            offset += 1
            return true
        case close:
            offset += 1
            return false
        default: throw refusal(.unexpected(expected: "',' or the container's end"))
        }
    }

    // MARK: Values

    /// A string's bytes with its escapes decoded: a slice of the frame when it has none.
    mutating func string() throws(UtxosChangedReaderError) -> ArraySlice<UInt8> {
        try expect(UInt8(ascii: "\""), "a string")
        let start = offset
        var decoded: [UInt8]?  // from the first escape on
        while bytes.indices.contains(offset) {
            let byte = bytes[offset]
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return decoded.map { $0[...] } ?? bytes[start..<(offset - 1)]
            case UInt8(ascii: "\\"):
                if decoded == nil { decoded = Array(bytes[start..<offset]) }
                offset += 1
                let value = try escape()
                decoded?.append(value)
            case ..<0x20: throw refusal(.unexpected(expected: "an escape for a control character"))
            case 0x80...: throw refusal(.nonASCIIString)
            default:
                decoded?.append(byte)
                offset += 1
            }
        }
        throw refusal(.unexpected(expected: "the end of a string"))
    }

    /// The byte an escape stands for, read after its backslash.
    private mutating func escape() throws(UtxosChangedReaderError) -> UInt8 {
        guard bytes.indices.contains(offset) else { throw refusal(.unexpected(expected: "an escape")) }
        let letter = bytes[offset]
        let value: UInt8
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): value = letter
        case UInt8(ascii: "b"): value = 0x08
        case UInt8(ascii: "f"): value = 0x0c
        case UInt8(ascii: "n"): value = 0x0a
        case UInt8(ascii: "r"): value = 0x0d
        case UInt8(ascii: "t"): value = 0x09
        case UInt8(ascii: "u"):
            // Four hex digits (either case), of which only 0000-007f are read here.
            let digits = (offset + 1)..<(offset + 5)
            guard digits.upperBound <= bytes.count, let code = try? Hex.decode(utf8: bytes[digits]) else {
                throw refusal(.unexpected(expected: "four hex digits after \\u"))
            }
            guard code.first == 0, let low = code.last, low < 0x80 else { throw refusal(.nonASCIIString) }
            offset = digits.upperBound
            return low
        default: throw refusal(.unexpected(expected: "an escape"))
        }
        offset += 1
        return value
    }

    /// A JSON integer that fits a `UInt64`, written in plain digits (`0`, or no leading zero).
    mutating func unsignedInteger() throws(UtxosChangedReaderError) -> UInt64 {
        skipWhitespace()
        let start = offset
        var value: UInt64 = 0
        while bytes.indices.contains(offset), let digit = Self.decimalValue(bytes[offset]) {
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow, !carry else { throw refusal(.unsupportedNumber) }
            value = sum
            offset += 1
        }
        guard offset > start else { throw refusal(.unexpected(expected: "an unsigned integer")) }
        guard bytes[start] != UInt8(ascii: "0") || offset == start + 1 else {
            offset = start
            throw refusal(.unsupportedNumber)
        }
        return value
    }

    /// `true` or `false`.
    mutating func boolean() throws(UtxosChangedReaderError) -> Bool {
        if literal("true") { return true }
        if literal("false") { return false }
        throw refusal(.unexpected(expected: "true or false"))
    }

    /// Reads `null` if it comes next: true when it did.
    mutating func null() -> Bool { literal("null") }

    /// Reads `word` if it comes next. What may follow it is checked by the container it is in.
    private mutating func literal(_ word: StaticString) -> Bool {
        skipWhitespace()
        let matches = word.withUTF8Buffer { word in
            bytes.count - offset >= word.count && bytes[offset..<(offset + word.count)].elementsEqual(word)
        }
        guard matches else { return false }
        offset += word.utf8CodeUnitCount
        return true
    }

    /// Reads any value, checking its syntax, and keeps nothing (members a reader does not use).
    mutating func skipValue(depth: Int = 0) throws(UtxosChangedReaderError) {
        guard depth < Self.maximumDepth else { throw refusal(.tooDeep) }
        skipWhitespace()
        guard bytes.indices.contains(offset) else { throw refusal(.unexpected(expected: "a value")) }
        switch bytes[offset] {
        case UInt8(ascii: "{"):
            try enterObject()
            while try nextMember() != nil { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            try enterArray()
            while try nextElement() { try skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        default:
            guard literal("true") || literal("false") || literal("null") else {
                throw refusal(.unexpected(expected: "a value"))
            }
        }
    }

    /// RFC 8259 §6: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func skipNumber() throws(UtxosChangedReaderError) {
        _ = skip(UInt8(ascii: "-"))
        if skip(UInt8(ascii: "0")) {
            guard digits() == 0 else { throw refusal(.unsupportedNumber) }
        } else if digits() == 0 {
            throw refusal(.unexpected(expected: "a digit"))
        }
        if skip(UInt8(ascii: ".")), digits() == 0 { throw refusal(.unexpected(expected: "a digit")) }
        if skip(UInt8(ascii: "e")) || skip(UInt8(ascii: "E")) {
            _ = skip(UInt8(ascii: "+")) || skip(UInt8(ascii: "-"))
            if digits() == 0 { throw refusal(.unexpected(expected: "a digit")) }
        }
    }

    /// Reads decimal digits: how many.
    private mutating func digits() -> Int {
        let start = offset
        while bytes.indices.contains(offset), Self.decimalValue(bytes[offset]) != nil { offset += 1 }
        return offset - start
    }

    // MARK: Bytes

    private mutating func skipWhitespace() {
        while bytes.indices.contains(offset) {
            switch bytes[offset] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): offset += 1
            default: return
            }
        }
    }

    /// Reads `byte` if it comes next (no whitespace first): true when it did.
    private mutating func skip(_ byte: UInt8) -> Bool {
        guard bytes.indices.contains(offset), bytes[offset] == byte else { return false }
        offset += 1
        return true
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws(UtxosChangedReaderError) {
        skipWhitespace()
        guard skip(byte) else { throw refusal(.unexpected(expected: what)) }
    }

    /// An error at the current offset.
    func refusal(_ reason: UtxosChangedReaderError.Reason) -> UtxosChangedReaderError {
        UtxosChangedReaderError(offset: offset, reason: reason)
    }

    private static func decimalValue(_ byte: UInt8) -> UInt8? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? byte - UInt8(ascii: "0") : nil
    }
}

/// A member's name as a frame spells it (escapes decoded), matched against names in `switch`.
struct MemberName {
    let bytes: ArraySlice<UInt8>

    var text: String { String(decoding: bytes, as: UTF8.self) }

    static func ~= (pattern: StaticString, name: MemberName) -> Bool {
        pattern.withUTF8Buffer { name.bytes.elementsEqual($0) }
    }
}
