import TandemBasics

/// Lowercase UUID v4 text (spec §2 `taskId`): 8-4-4-4-12 lowercase hex, version nibble 4,
/// variant nibble 8, 9, a or b. Held as two words so grouping by task is cheap.
struct UUIDv4: Sendable, Hashable, Comparable {
    let high: UInt64
    let low: UInt64

    init?(_ text: String) {
        var copy = text
        let words: (UInt64, UInt64)? = copy.withUTF8 { utf8 in
            guard utf8.count == 36 else { return nil }
            var high: UInt64 = 0
            var low: UInt64 = 0
            var nibbles = 0
            for position in 0..<36 {
                let byte = utf8[position]
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard byte == UInt8(ascii: "-") else { return nil }
                    continue
                }
                guard let value = Hex.lowercaseNibble(byte) else { return nil }
                if position == 14 && value != 4 { return nil }
                if position == 19 && !(8...11).contains(value) { return nil }
                if nibbles < 16 { high = high << 4 | UInt64(value) } else { low = low << 4 | UInt64(value) }
                nibbles += 1
            }
            return (high, low)
        }
        guard let words else { return nil }
        (high, low) = words
    }

    /// From 16 random bytes, setting the version and variant bits (for producers).
    init(randomBytes: [UInt8]) {
        var bytes = randomBytes + [UInt8](repeating: 0, count: max(0, 16 - randomBytes.count))
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    var text: String {
        var out: [UInt8] = []
        out.reserveCapacity(36)
        Hex.appendWord(high >> 32, digits: 8, to: &out)
        out.append(UInt8(ascii: "-"))
        Hex.appendWord((high >> 16) & 0xFFFF, digits: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        Hex.appendWord(high & 0xFFFF, digits: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        Hex.appendWord(low >> 48, digits: 4, to: &out)
        out.append(UInt8(ascii: "-"))
        Hex.appendWord(low & 0xFFFF_FFFF_FFFF, digits: 12, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func < (lhs: UUIDv4, rhs: UUIDv4) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}
