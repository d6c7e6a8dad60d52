public import KaspaCrypto

/// Why a Kasia message could not be sealed or opened (kasia-protocol §3).
public enum KasiaCipherError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A sealed message is at least 61 bytes: nonce 12, key 33, tag 16.
    case sealedMessageTooShort(Int)
    /// Byte 12 must start a SEC1-compressed key (02 or 03).
    case ephemeralKeyNotCompressed(prefix: UInt8)
    /// The ephemeral key's x has no point on the curve.
    case ephemeralKeyNotOnCurve
    /// Wrong recipient key or tampered bytes: the Poly1305 tag does not match.
    case authenticationFailed
    /// The decrypted bytes are not UTF-8 (both Kasia and KaChat reject these).
    case plaintextNotUTF8
    /// The recipient address cannot be encrypted to.
    case invalidRecipient(KaspaAddressError)
    /// A key operation failed.
    case key(KaspaKeyError)
    /// The fixed nonce given to the test seam is not 12 bytes.
    case nonceLength(Int)

    public var description: String {
        switch self {
        case .sealedMessageTooShort(let n): "sealed message too short (\(n) < \(KasiaCipher.minimumSealedLength))"
        case .ephemeralKeyNotCompressed: "ephemeral key is not SEC1-compressed"
        case .ephemeralKeyNotOnCurve: "x-only key is not on secp256k1"
        case .authenticationFailed: "AEAD authentication failed"
        case .plaintextNotUTF8: "plaintext is not valid UTF-8"
        case .invalidRecipient(let error): error.description
        case .key(let error): error.description
        case .nonceLength(let n): "nonce must be 12 bytes, got \(n)"
        }
    }
}
