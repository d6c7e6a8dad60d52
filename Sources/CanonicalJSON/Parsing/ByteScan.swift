/// Word-at-a-time searches over UTF-8 (eight bytes per step, in a `UInt64`): the parser and the
/// writer spend most of their time finding where a run of ordinary bytes ends, and a node's text
/// is mostly such runs.
///
/// Each test sets the high bit of every byte that matches. A borrow from a matching byte can also
/// set bits in the bytes above it, never below, so the lowest set bit is always a true match:
/// exactly what a search for the first one needs.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Marks the bytes of `word` below `limit` (at most 0x80).
    @inline(__always)
    private static func below(_ limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highBits
    }

    /// Marks the bytes of `word` equal to `byte`.
    @inline(__always)
    private static func equal(_ byte: UInt8, in word: UInt64) -> UInt64 {
        below(1, in: word ^ (ones &* UInt64(byte)))
    }

    @inline(__always)
    private static func word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
        UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// The offset of the first byte at or after `start` that ends a run of plain string content —
    /// `"`, `\` or a control character — or `buffer.count` when there is none.
    static func firstStringSpecial(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        let count = buffer.count
        if let base = buffer.baseAddress.map(UnsafeRawPointer.init) {
            while index + 8 <= count {
                let word = word(base, index)
                let marks = below(0x20, in: word) | equal(0x22, in: word) | equal(0x5C, in: word)
                if marks != 0 { return index + marks.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < count {
            let byte = buffer[index]
            if byte < 0x20 || byte == 0x22 || byte == 0x5C { return index }
            index += 1
        }
        return count
    }

    /// The offset of the first byte at or after `start` that is not ASCII, or `buffer.count`.
    static func firstNonASCII(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        let count = buffer.count
        if let base = buffer.baseAddress.map(UnsafeRawPointer.init) {
            while index + 8 <= count {
                let marks = word(base, index) & highBits
                if marks != 0 { return index + marks.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < count, buffer[index] < 0x80 { index += 1 }
        return index
    }
}
