import Crypto

/// Ed25519 over the canonical body bytes, the same bytes that are hashed (spec §3).
enum NodeSignature {
    /// Verifies with `author.publicKey`, never `userId`. swift-crypto rejects non-canonical S.
    static func isValid(_ signature: SignatureHex, for body: [UInt8], publicKey: PublicKeyHex) -> Bool {
        guard let key = try? Curve25519.Signing.PublicKey(rawRepresentation: publicKey.rawBytes) else { return false }
        return key.isValidSignature(signature.rawBytes, for: body)
    }
}
