import Crypto

/// Why a signing key could not be made from bytes.
public enum SigningKeyError: Error, Sendable, Equatable {
    /// The seed is not 32 bytes.
    case seedLength(Int)
}

/// An author's Ed25519 key (spec §3): the private key is the 32-byte seed.
public struct SigningKey: Sendable {
    let key: Curve25519.Signing.PrivateKey

    /// A new random key.
    public init() { key = Curve25519.Signing.PrivateKey() }

    /// The key for a 32-byte seed (RFC 8032).
    public init(seed: [UInt8]) throws(SigningKeyError) {
        guard seed.count == 32, let key = try? Curve25519.Signing.PrivateKey(rawRepresentation: seed) else {
            throw .seedLength(seed.count)
        }
        self.key = key
    }

    /// The 32-byte seed, for storage in the profile's key file.
    public var seed: [UInt8] { Array(key.rawRepresentation) }

    public var publicKey: PublicKeyHex { PublicKeyHex(rawBytes: Array(key.publicKey.rawRepresentation)) }

    public var userID: UserID { publicKey.userID }

    /// The Ed25519 signature of `message` (deterministic with swift-crypto on Linux).
    public func signature(for message: [UInt8]) -> SignatureHex {
        // Signing with a valid private key only fails on allocation failure in BoringSSL.
        let bytes = (try? key.signature(for: message)).map { Array($0) } ?? []
        return SignatureHex(rawBytes: bytes)
    }

    /// Whether `signature` is a valid Ed25519 signature of `message` by `publicKey`.
    public static func isValidSignature(_ signature: SignatureHex, for message: [UInt8], publicKey: PublicKeyHex)
        -> Bool
    {
        NodeSignature.isValid(signature, for: message, publicKey: publicKey)
    }
}
