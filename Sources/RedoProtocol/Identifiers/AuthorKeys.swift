import TandemBasics

/// A raw 32-byte Ed25519 public key, written as 64 lowercase hex digits (spec §2, [SWIFT-6]).
public struct PublicKeyHex: Sendable, Hashable, CustomStringConvertible {
    public let rawBytes: [UInt8]
    public let description: String

    public init?(_ text: String) {
        guard let bytes = Hex.decodeLowercase(text, byteCount: 32) else { return nil }
        rawBytes = bytes
        description = text
    }

    public init(rawBytes: [UInt8]) {
        self.rawBytes = rawBytes
        description = Hex.encode(rawBytes)
    }

    /// The author's userId: the first 32 hex digits of the key, not a hash (spec §3, RES-3).
    /// The prefix is cut from the UTF-8 (the text is ASCII hex): `prefix(32)` on the `String`
    /// walked it grapheme by grapheme.
    public var userID: UserID { UserID(unchecked: String(decoding: description.utf8.prefix(32), as: UTF8.self)) }
}

/// `author.userId`: 32 lowercase hex digits equal to the public key's prefix (spec §3, RES-3).
public struct UserID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let description: String

    /// Parses 32 lowercase hex digits; whether it matches a key is checked by the validator.
    public init?(_ text: String) {
        guard text.utf8.count == 32, Hex.isLowercaseHex(text) else { return nil }
        description = text
    }

    init(unchecked text: String) { description = text }

    public static func < (lhs: UserID, rhs: UserID) -> Bool { lhs.description < rhs.description }
}

/// A 64-byte Ed25519 signature, 128 lowercase hex digits (spec §2 `signature`).
public struct SignatureHex: Sendable, Hashable, CustomStringConvertible {
    public let rawBytes: [UInt8]
    public let description: String

    public init?(_ text: String) {
        guard let bytes = Hex.decodeLowercase(text, byteCount: 64) else { return nil }
        rawBytes = bytes
        description = text
    }

    public init(rawBytes: [UInt8]) {
        self.rawBytes = rawBytes
        description = Hex.encode(rawBytes)
    }
}
