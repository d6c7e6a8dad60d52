import TandemBasics

/// Appends the RFC 8785 (JCS) form of values to a byte buffer (spec §4).
///
/// One reusable `[UInt8]` buffer, no intermediate strings except for the rare non-integral
/// number, so hashing a node costs little more than one pass over its bytes.
public struct CanonicalWriter: Sendable {
    /// The canonical UTF-8 written so far.
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its storage.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
    }

    /// Appends the canonical form of `value`.
    public mutating func write(_ value: JSONValue) throws(CanonicalJSONError) {
        switch value {
        case .null: append("null")
        case .bool(let flag): append(flag ? "true" : "false")
        case .number(let number): try NumberFormat.append(number, to: &bytes)
        case .string(let string): writeString(string)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            var first = true
            for element in elements {
                if !first { bytes.append(UInt8(ascii: ",")) }
                first = false
                try write(element)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let object):
            try write(object)
        }
    }

    /// Appends the canonical form of an object (members are already in JCS order).
    public mutating func write(_ object: JSONObject) throws(CanonicalJSONError) {
        bytes.append(UInt8(ascii: "{"))
        var first = true
        for member in object.members {
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            writeString(member.key)
            bytes.append(UInt8(ascii: ":"))
            try write(member.value)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Appends a string literal with JCS's minimal escaping (``appendString(_:to:)``).
    public mutating func writeString(_ string: String) {
        Self.appendString(string, to: &bytes)
    }

    /// Appends a JSON string literal with JCS's minimal escaping: `\"`, `\\`, the five short
    /// control escapes, `\u00xx` (lowercase) for other controls; everything else, `/` and
    /// non-ASCII included, as raw UTF-8. The one string escaper of the project: the server's
    /// hand-written response bodies use it too.
    public static func appendString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        KeyOrder.withUTF8(string) { utf8 in
            // Copy runs of bytes that need no escape in one go; escapes are rare.
            var runStart = 0
            while true {
                let special = ByteScan.firstStringSpecial(in: utf8, from: runStart)
                if special > runStart {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<special]))
                }
                guard special < utf8.count else { break }
                appendEscape(utf8[special], to: &bytes)
                runStart = special + 1
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendEscape(_ byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case 0x22: bytes.append(UInt8(ascii: "\""))
        case 0x5C: bytes.append(UInt8(ascii: "\\"))
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            Hex.append(byte, to: &bytes)
        }
    }

    /// Appends one raw byte (structural characters for callers that stream a value).
    public mutating func appendByte(_ byte: UInt8) {
        bytes.append(byte)
    }

    private mutating func append(_ literal: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

}
