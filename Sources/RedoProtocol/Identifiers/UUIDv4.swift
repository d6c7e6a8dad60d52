import TandemBasics

/// Lowercase UUID v4 text (spec §2 `taskId`): 8-4-4-4-12 lowercase hex, version nibble 4,
/// variant nibble 8, 9, a or b. Held as two words so grouping by task is cheap.
struct UUIDv4: Sendable, Hashable, Comparable {
    let high: UInt64
    let low: UInt64

    init?(_ text: String) {
        var copy = text
        guard let uuid = copy.withUTF8(Self.init(utf8:)) else { return nil }
        self = uuid
    }

    /// From the text's UTF-8 bytes, as ``init(_:)``.
    init?(utf8: UnsafeBufferPointer<UInt8>) {
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
        self.high = high
        self.low = low
    }

    /// From 16 random bytes, setting the version and variant bits (for producers).
    init(randomBytes: [UInt8]) {
        var bytes = randomBytes + [UInt8](repeating: 0, count: max(0, 16 - randomBytes.count))
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    var text: String { text(length: 36) }

    /// The first `length` (at most 36) characters of ``text``, written straight into the string:
    /// lists and JSON write one per task.
    func text(length: Int) -> String {
        let length = min(max(length, 0), 36)
        return String(unsafeUninitializedCapacity: length) { out in
            var nibble = 0
            for position in 0..<length {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    out[position] = UInt8(ascii: "-")
                    continue
                }
                let word = nibble < 16 ? high : low
                let value = UInt8(truncatingIfNeeded: word >> UInt64(60 - nibble % 16 * 4)) & 0x0F
                out[position] = value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") - 10 + value
                nibble += 1
            }
            return length
        }
    }

    static func < (lhs: UUIDv4, rhs: UUIDv4) -> Bool { (lhs.high, lhs.low) < (rhs.high, rhs.low) }
}
