/// RFC 8785 §3.2.3 member order: lexicographic on UTF-16 code units (spec §4 rule 2, RES-4).
///
/// Comparing UTF-8 bytes gives code-point order, which differs from UTF-16 order only where a
/// supplementary character (lead byte F0–F4) meets a BMP character U+E000–U+FFFF (lead byte
/// EE–EF): in UTF-16 the surrogate pair (D800–DBFF) sorts first. At the first differing byte both
/// strings are at the same position inside the same character class, so swapping just that case
/// yields UTF-16 order without transcoding.
public enum KeyOrder {
    /// Whether `lhs` sorts before `rhs` in RFC 8785 member order.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        withUTF8(lhs) { a in withUTF8(rhs) { b in precedes(a, b) } }
    }

    /// The UTF-8 of `string` without copying it (no retain either, unlike `var copy`
    /// + `withUTF8`): the parser's strings are native, so the copy is only a fallback.
    @inline(__always)
    static func withUTF8<R>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = string.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = string
        return copy.withUTF8(body)
    }

    static func precedes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let shared = min(a.count, b.count)
        var index = 0
        while index < shared {
            let x = a[index]
            let y = b[index]
            if x != y {
                if x >= 0xF0 && (y == 0xEE || y == 0xEF) { return true }
                if y >= 0xF0 && (x == 0xEE || x == 0xEF) { return false }
                return x < y
            }
            index += 1
        }
        return a.count < b.count
    }

    /// Byte-wise (UTF-8) equality: never Swift's canonical equivalence, which would merge
    /// `"é"` and `"e\u{301}"` (spec §4).
    ///
    /// Inlinable, so the length comparison, which settles most pairs of member names, costs no
    /// call in field lookups and unknown-member checks (issue 29, validation from text).
    @inlinable
    public static func bytesEqual(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count && sameBytes(lhs, rhs)
    }

    /// The bytes of two strings of equal UTF-8 length are equal.
    @usableFromInline
    static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        withUTF8(lhs) { a in
            withUTF8(rhs) { b in
                var index = 0
                while index < a.count {
                    if a[index] != b[index] { return false }
                    index += 1
                }
                return true
            }
        }
    }

    static func isSorted(_ members: [JSONObject.Member]) -> Bool {
        var index = 1
        while index < members.count {
            if !precedes(members[index - 1].key, members[index].key) { return false }
            index += 1
        }
        return true
    }
}
