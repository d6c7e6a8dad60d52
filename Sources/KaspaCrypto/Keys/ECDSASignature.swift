#if canImport(Darwin)
    import libsecp256k1
#else
    import CSecp256k1
#endif

/// A 64-byte compact secp256k1 ECDSA signature `r ‖ s` (big-endian), the form Kaspa puts in an
/// ECDSA input's signature script (`OP_DATA_65 ‖ r ‖ s ‖ type`; rusty-kaspa `txscript`
/// `check_ecdsa_signature`, which parses it with `from_compact`).
public struct ECDSASignature: Sendable, Hashable {
    public let rawRepresentation: [UInt8]

    /// Takes 64 bytes; whether `r` and `s` are in range is checked when verifying.
    public init(rawRepresentation bytes: some Collection<UInt8>) throws(KaspaKeyError) {
        let bytes = Array(bytes)
        guard bytes.count == 64 else { throw .signatureLength(bytes.count) }
        self.rawRepresentation = bytes
    }
}

extension PublicKey {
    /// Verifies an ECDSA signature over a 32-byte digest with libsecp256k1, as a Kaspa node does:
    /// `r` or `s` out of range, or a high `s` (libsecp256k1 accepts only the lower form), fails.
    public func isValidECDSASignature(_ signature: ECDSASignature, for digest: some Collection<UInt8>) -> Bool {
        let digest = Array(digest)
        guard digest.count == 32 else { return false }
        let context = Secp256k1Context.shared.pointer
        var parsed = secp256k1_ecdsa_signature()
        guard secp256k1_ecdsa_signature_parse_compact(context, &parsed, signature.rawRepresentation) == 1 else {
            return false
        }
        var point = point
        return secp256k1_ecdsa_verify(context, &parsed, digest, &point) == 1
    }
}

extension PrivateKey {
    /// An ECDSA signature over a 32-byte digest: RFC 6979 nonce, lower `s` (libsecp256k1's
    /// defaults), in compact form.
    public func ecdsaSignature(for digest: some Collection<UInt8>) throws(KaspaKeyError) -> ECDSASignature {
        let digest = Array(digest)
        guard digest.count == 32 else { throw .messageLength(digest.count) }
        let context = Secp256k1Context.shared.pointer
        var signature = secp256k1_ecdsa_signature()
        guard secp256k1_ecdsa_sign(context, &signature, digest, rawRepresentation, nil, nil) == 1 else {
            throw .operationFailed("ECDSA signing")
        }
        var compact = [UInt8](repeating: 0, count: 64)
        guard secp256k1_ecdsa_signature_serialize_compact(context, &compact, &signature) == 1 else {
            throw .operationFailed("ECDSA serialisation")
        }
        return try ECDSASignature(rawRepresentation: compact)
    }
}
