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

    private static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Lowercase hex of `bytes`.
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

    /// Decodes hex given as ASCII bytes (for payload bodies that are hex text).
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

    @inline(__always)
    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func invalid(_ utf8: [UInt8], at offset: Int) -> DecodingError {
        // Report the character as the user sees it, even when the byte is part of a multi-byte one.
        let prefix = String(decoding: utf8[..<offset], as: UTF8.self)
        let rest = String(decoding: utf8[offset...], as: UTF8.self)
        return .invalidCharacter(rest.first ?? "?", offset: prefix.count)
    }
}
