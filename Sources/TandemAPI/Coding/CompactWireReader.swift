import Foundation

/// A cursor over an answer in exactly the form the server writes it (no whitespace, members in
/// the encoder's order, no escapes): the readers of the hottest answers (`ContactRecordPage`,
/// `RedoNodePushResponse`) take such a text without `JSONDecoder`. Every read returns nil (or
/// false) at the first byte that is not the expected one, and the caller then decodes with
/// `JSONDecoder`, which accepts or rejects the text exactly as before.
struct CompactWireReader {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// What `read` makes of `data`'s bytes; nil when it declines them.
    static func read<Value>(_ data: Data, _ read: (inout CompactWireReader) -> Value?) -> Value? {
        data.withUnsafeBytes { raw in
            var reader = CompactWireReader(bytes: raw.bindMemory(to: UInt8.self))
            return read(&reader)
        }
    }

    /// Consumes `text` when the bytes at the cursor are exactly its UTF-8.
    mutating func literal(_ text: StaticString) -> Bool {
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
    mutating func run(while accept: (UInt8) -> Bool) -> String? {
        let start = index
        while index < bytes.count, accept(bytes[index]) { index += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// The text of a string whose opening quote was read, up to its closing quote (consumed):
    /// printable ASCII only. Nil at an escape, a control character or any byte past ASCII: those
    /// are left to `JSONDecoder`, which alone decides what they mean.
    mutating func plainString() -> String? {
        let start = index
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            guard bytes[index] >= 0x20, bytes[index] < 0x7F, bytes[index] != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return text
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
