import CSecp256k1

/// A BIP-340 x-only public key: 32 bytes, the x coordinate of a point with implied even y.
///
/// This is the payload of a Kaspa version-0 (Schnorr) address and the context key of the
/// deterministic aliases (kasia-protocol §6.2).
public struct XOnlyPublicKey: Sendable, Hashable {
    public let rawRepresentation: [UInt8]

    /// Parses 32 bytes and checks that x lies on secp256k1 (about half of random strings do not).
    public init(rawRepresentation bytes: some Collection<UInt8>) throws(KaspaKeyError) {
        let bytes = Array(bytes)
        guard bytes.count == 32 else { throw .xOnlyKeyLength(bytes.count) }
        var key = secp256k1_xonly_pubkey()
        guard secp256k1_xonly_pubkey_parse(Secp256k1Context.shared.pointer, &key, bytes) == 1 else {
            throw .xOnlyKeyNotOnCurve
        }
        self.rawRepresentation = bytes
    }

    /// For x coordinates taken from a point we already hold.
    init(validatedX: [UInt8]) { self.rawRepresentation = validatedX }

    /// The point with this x and even y (`02 ‖ x`), the lift both Kasia and KaChat use when an
    /// address gives only x (kasia-protocol §2). ECDH with either lift gives the same x.
    public var evenYPublicKey: PublicKey {
        get throws(KaspaKeyError) {
            try PublicKey(compressedRepresentation: [0x02] + rawRepresentation)
        }
    }

    /// Verifies a BIP-340 signature over a 32-byte message.
    public func isValidSignature(_ signature: SchnorrSignature, for message: some Collection<UInt8>) -> Bool {
        let message = Array(message)
        guard message.count == 32 else { return false }
        var key = secp256k1_xonly_pubkey()
        guard secp256k1_xonly_pubkey_parse(Secp256k1Context.shared.pointer, &key, rawRepresentation) == 1 else {
            return false
        }
        return secp256k1_schnorrsig_verify(
            Secp256k1Context.shared.pointer, signature.rawRepresentation, message, 32, &key) == 1
    }
}

/// A 64-byte BIP-340 Schnorr signature.
public struct SchnorrSignature: Sendable, Hashable {
    public let rawRepresentation: [UInt8]

    public init(rawRepresentation bytes: some Collection<UInt8>) throws(KaspaKeyError) {
        let bytes = Array(bytes)
        guard bytes.count == 64 else { throw .signatureLength(bytes.count) }
        self.rawRepresentation = bytes
    }
}
