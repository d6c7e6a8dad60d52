import TandemBasics

/// Word-sized lowercase hex for the identifiers that are held as integers (``NodeID``,
/// `UUIDv4`): replay parses and compares thousands of them, so they skip the byte array.
extension Hex {
    /// One big-endian word from 16 lowercase hex digits at `offset` (spec §2 "All hex is lowercase").
    static func word(_ utf8: UnsafeBufferPointer<UInt8>, offset: Int) -> UInt64? {
        var word: UInt64 = 0
        for position in offset..<(offset + 16) {
            guard let value = lowercaseNibble(utf8[position]) else { return nil }
            word = word << 4 | UInt64(value)
        }
        return word
    }

    /// Appends the low `count` hex digits of `word` (an even count: whole bytes) to `out`.
    static func appendWord(_ word: UInt64, digits count: Int = 16, to out: inout [UInt8]) {
        var shift = count * 4 - 8
        while shift >= 0 {
            append(UInt8(truncatingIfNeeded: word >> UInt64(shift)), to: &out)
            shift -= 8
        }
    }
}
