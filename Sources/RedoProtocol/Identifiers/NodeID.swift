import TandemBasics

/// A node's content id: `sha256:` + 64 lowercase hex digits (spec §2, §3).
///
/// Stored as four big-endian words so the id tiebreak of the total order (spec §7.1, byte-wise on
/// the hex text) is four integer comparisons, and hashing is cheap during replay.
public struct NodeID: Sendable, Hashable, Comparable, CustomStringConvertible {
    let w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    /// The id for a SHA-256 digest (its first 32 bytes; missing bytes read as zero).
    public init(digest: some Sequence<UInt8>) {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for (index, byte) in digest.prefix(32).enumerated() {
            let bits = UInt64(byte) << UInt64(56 - 8 * (index % 8))
            switch index / 8 {
            case 0: words.0 |= bits
            case 1: words.1 |= bits
            case 2: words.2 |= bits
            default: words.3 |= bits
            }
        }
        (w0, w1, w2, w3) = words
    }

    /// The id for 32 digest bytes read in place: no iterator (a swift-crypto digest iterates
    /// through a copied array) and no word array, as every content id is made (issue 29).
    init(digestBytes bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count >= 32, "a SHA-256 digest has 32 bytes")
        w0 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        w1 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        w2 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        w3 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    /// Parses `sha256:<64 lowercase hex>`; nil for any other text.
    public init?(_ text: String) {
        var copy = text
        let parsed: (UInt64, UInt64, UInt64, UInt64)? = copy.withUTF8 { utf8 in
            guard utf8.count == 71, utf8[0] == UInt8(ascii: "s"), utf8[6] == UInt8(ascii: ":"),
                utf8.starts(with: "sha256:".utf8),
                let a = Hex.word(utf8, offset: 7), let b = Hex.word(utf8, offset: 23),
                let c = Hex.word(utf8, offset: 39), let d = Hex.word(utf8, offset: 55)
            else { return nil }
            return (a, b, c, d)
        }
        guard let words = parsed else { return nil }
        (w0, w1, w2, w3) = words
    }

    public var description: String {
        var out: [UInt8] = Array("sha256:".utf8)
        out.reserveCapacity(71)
        for word in [w0, w1, w2, w3] { Hex.appendWord(word, to: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Byte-wise order of the hex text, which equals numeric order of the digest.
    public static func < (lhs: NodeID, rhs: NodeID) -> Bool {
        (lhs.w0, lhs.w1, lhs.w2, lhs.w3) < (rhs.w0, rhs.w1, rhs.w2, rhs.w3)
    }
}
