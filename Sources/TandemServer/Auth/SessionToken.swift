import Crypto
import TandemBasics
public import TandemServerStore

/// A session secret: 44 characters of `[A-Za-z0-9]` from the system CSPRNG, 44·log2(62) ≈ 262
/// bits (BetterAuth uses 32 characters, ≈ 190 bits; clients treat the token as opaque, §14).
public struct SessionToken: Sendable, Equatable {
    public let value: String

    static let length = 44
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)

    public init(value: String) { self.value = value }

    /// A fresh token. Bytes ≥ 248 are rejected so every character is uniform over 62.
    public static func generate() -> SessionToken {
        SessionToken(value: randomAlphanumeric(count: length))
    }

    /// The stored form: SHA-256 of the token, hex.
    public var hash: SessionTokenHash {
        SessionTokenHash(hex: Hex.encode(SHA256.hash(data: Array(value.utf8))))
    }

    /// Random `[A-Za-z0-9]` text, used for tokens and row ids.
    static func randomAlphanumeric(count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            if byte < 248 { out.append(alphabet[Int(byte % 62)]) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
