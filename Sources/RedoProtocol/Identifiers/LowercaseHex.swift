/// Lowercase-only hex, the only hex the protocol allows (spec §2 "All hex is lowercase").
enum LowercaseHex {
    static let digits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The value of one lowercase hex digit, or nil (uppercase is an encoding violation).
    @inline(__always)
    static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    /// Decodes exactly `count` bytes from a lowercase hex string of length 2·count.
    static func decode(_ text: String, byteCount count: Int) -> [UInt8]? {
        var copy = text
        return copy.withUTF8 { utf8 -> [UInt8]? in
            guard utf8.count == count * 2 else { return nil }
            var out = [UInt8](repeating: 0, count: count)
            for index in 0..<count {
                guard let high = nibble(utf8[2 * index]), let low = nibble(utf8[2 * index + 1]) else { return nil }
                out[index] = high << 4 | low
            }
            return out
        }
    }

    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// One big-endian word from 16 hex digits at `offset` of a UTF-8 buffer.
    static func word(_ utf8: UnsafeBufferPointer<UInt8>, offset: Int) -> UInt64? {
        var word: UInt64 = 0
        for position in offset..<(offset + 16) {
            guard let value = nibble(utf8[position]) else { return nil }
            word = word << 4 | UInt64(value)
        }
        return word
    }

    static func appendWord(_ word: UInt64, digits count: Int = 16, to out: inout [UInt8]) {
        var shift = (count - 1) * 4
        while shift >= 0 {
            out.append(digits[Int((word >> UInt64(shift)) & 0xF)])
            shift -= 4
        }
    }
}
