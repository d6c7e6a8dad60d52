import KaspaCrypto

/// A conversation alias: 12 lowercase hex characters (6 bytes), the tag a `comm` payload carries
/// (kasia-protocol §6).
public struct Alias: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String

    /// Why a string is not an alias.
    public enum ValidationError: Error, Equatable, Sendable, CustomStringConvertible {
        case notTwelveHex(String)

        public var description: String { "alias must be 12 hex characters" }
    }

    /// Accepts exactly 12 hex digits; upper case is folded to the canonical lower case.
    public init(_ text: some StringProtocol) throws(ValidationError) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 12, utf8.allSatisfy(Alias.isHexDigit) else { throw .notTwelveHex(String(text)) }
        self.rawValue = String(text).lowercased()
    }

    /// For the 6 bytes of a KDF output or a random draw (callers in this module only).
    init(sixBytes bytes: [UInt8]) {
        self.rawValue = Hex.encode(bytes)
    }

    /// A fresh random alias, as legacy clients generate (kasia-protocol §6.1).
    public static func random() -> Alias {
        var generator = SystemRandomNumberGenerator()
        return Alias(sixBytes: (0..<6).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    public var description: String { rawValue }

    public static func < (lhs: Alias, rhs: Alias) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        try self.init(text)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (0x30...0x39).contains(c) || (0x61...0x66).contains(c) || (0x41...0x46).contains(c)
    }
}
