import KaspaCrypto
import TandemBasics

/// A conversation alias: 12 lowercase hex characters (6 bytes), the tag a `comm` payload carries
/// (kasia-protocol §6).
///
/// Stored as the 48-bit number the hex spells, so sets of tens of thousands of aliases (the
/// watched set) hash and compare integers, not strings. Numeric order equals the text order
/// of the fixed-width lowercase hex, so "the smallest alias" means the same either way.
public struct Alias: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    let bits: UInt64

    /// Why a string is not an alias.
    public enum ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
        case notTwelveHex(String)

        public var description: String { "alias must be 12 hex characters" }
    }

    /// Accepts exactly 12 hex digits; upper case is folded to the canonical lower case.
    public init(_ text: some StringProtocol) throws(ValidationError) {
        guard let bits = Alias.parse(text.utf8) else { throw .notTwelveHex(String(text)) }
        self.bits = bits
    }

    /// Parses 12 ASCII hex digits.
    static func parse(_ utf8: some Collection<UInt8>) -> UInt64? {
        guard utf8.count == 12 else { return nil }
        var value: UInt64 = 0
        for byte in utf8 {
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x61...0x66: digit = byte - 0x61 + 10
            case 0x41...0x46: digit = byte - 0x41 + 10
            default: return nil
            }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    init(bits: UInt64) { self.bits = bits }

    /// For the 6 bytes of a KDF output or a random draw (callers in this module only).
    init(sixBytes bytes: [UInt8]) {
        bits = bytes.prefix(6).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A fresh random alias, as legacy clients generate (kasia-protocol §6.1).
    public static func random() -> Alias {
        var generator = SystemRandomNumberGenerator()
        return Alias(sixBytes: (0..<6).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The 12 lowercase hex characters.
    public var rawValue: String {
        Hex.encode((0..<6).map { UInt8(truncatingIfNeeded: bits >> (40 - 8 * UInt64($0))) })
    }

    public var description: String { rawValue }

    public static func < (lhs: Alias, rhs: Alias) -> Bool { lhs.bits < rhs.bits }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
