/// Lowercase hexadecimal text for bytes, with a strict decoder for untrusted input.
public enum Hex {
    /// Why a string is not hex.
    public enum DecodingError: Error, Equatable, Sendable, CustomStringConvertible {
        case oddLength(Int)
        case invalidCharacter(Character, offset: Int)

        public var description: String {
            switch self {
            case .oddLength(let n): "hex text has an odd length (\(n) characters)"
            case .invalidCharacter(let c, let offset): "invalid hex character '\(c)' at offset \(offset)"
            }
        }
    }

    @usableFromInline static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lowercase hex of `bytes`. Inlinable so callers get a copy specialised for their byte
    /// collection: the generic one walked every byte through witness tables, ≈ 1 % of a relay
    /// submission's server CPU for its `tx_id` and alias (BENCHMARKS.md, relay, session 8).
    @inlinable
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var out = [UInt8]()
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex text; upper and lower case digits are both accepted.
    public static func decode(_ text: some StringProtocol) throws(DecodingError) -> [UInt8] {
        try decode(utf8: text.utf8)
    }

    /// Decodes hex given as ASCII bytes (for payload bodies that are hex text). Inlinable, as
    /// ``encode(_:)`` is, so a caller's collection (the slices of a node frame that KaspaRPC's
    /// UtxosChanged reader decodes, 4,000 to a 1,000-entry notification) gets a specialised copy.
    @inlinable
    public static func decode(utf8 text: some Collection<UInt8>) throws(DecodingError) -> [UInt8] {
        let utf8 = Array(text)
        guard utf8.count % 2 == 0 else { throw .oddLength(utf8.count) }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]) else { throw invalid(utf8, at: index) }
            guard let low = nibble(utf8[index + 1]) else { throw invalid(utf8, at: index + 1) }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    /// True when every character is a hex digit and the length is even.
    public static func isHex(_ text: some StringProtocol) -> Bool {
        let utf8 = text.utf8
        return utf8.count % 2 == 0 && utf8.allSatisfy(isDigit)
    }

    /// True for 0-9, a-f and A-F.
    @inlinable
    public static func isDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x46, 0x61...0x66: true
        default: false
        }
    }

    @inline(__always) @usableFromInline
    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    @usableFromInline
    static func invalid(_ utf8: [UInt8], at offset: Int) -> DecodingError {
        // Report the character as the user sees it, even when the byte is part of a multi-byte one.
        let prefix = String(decoding: utf8[..<offset], as: UTF8.self)
        let rest = String(decoding: utf8[offset...], as: UTF8.self)
        return .invalidCharacter(rest.first ?? "?", offset: prefix.count)
    }
}

extension Hex {
    /// The value of one lowercase hex digit, or nil. Protocols that allow lowercase hex only
    /// (Redo spec §2, the relay's signatures) treat an uppercase digit as an encoding violation.
    /// Inlinable: without it every digit that another module reads (Redo's node and task ids,
    /// 16 a word) was a call, ≈ 4 % of `tandem tasks list`'s CPU (issue 29).
    @inlinable @inline(__always)
    public static func lowercaseNibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Decodes exactly `count` bytes from lowercase hex text of length 2·count; nil for any other
    /// length or any character outside `0-9a-f`.
    public static func decodeLowercase(_ text: String, byteCount count: Int) -> [UInt8]? {
        guard text.utf8.count == count * 2 else { return nil }
        var copy = text
        return copy.withUTF8 { utf8 -> [UInt8]? in
            var valid = true
            // Written in place, not into a zeroed array through checked stores.
            let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
                for index in 0..<count {
                    guard let high = lowercaseNibble(utf8[2 * index]), let low = lowercaseNibble(utf8[2 * index + 1])
                    else {
                        valid = false
                        break
                    }
                    buffer[index] = high << 4 | low
                }
                initialized = valid ? count : 0
            }
            return valid ? out : nil
        }
    }

    /// Decodes lowercase hex text of any even length in one pass over its UTF-8; nil for an odd
    /// length or any character outside `0-9a-f`. For hot paths that check and decode together
    /// (the relay's payloads, issue 11 "Figures").
    public static func decodeLowercase(_ text: String) -> [UInt8]? {
        let count = text.utf8.count
        guard count % 2 == 0 else { return nil }
        return decodeLowercase(text, byteCount: count / 2)
    }

    /// True when `text` has an even length and holds only `0-9a-f` (inlinable, so a caller's
    /// string type is specialized rather than walked through its protocol witnesses).
    @inlinable
    public static func isLowercaseHex(_ text: some StringProtocol) -> Bool {
        let utf8 = text.utf8
        return utf8.count % 2 == 0 && utf8.allSatisfy { lowercaseNibble($0) != nil }
    }

    /// Appends the lowercase hex digits of `byte` to `out`, for writers that build text in place
    /// (inlinable, as ``lowercaseNibble(_:)`` is: other modules call it per byte).
    @inlinable @inline(__always)
    public static func append(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(digits[Int(byte >> 4)])
        out.append(digits[Int(byte & 0x0F)])
    }
}
