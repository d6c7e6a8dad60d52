#if canImport(Darwin)
    import libsecp256k1
#else
    import CSecp256k1
#endif

/// The raw 32-byte x coordinate of a Diffie-Hellman product `k·P`.
///
/// Kasia uses this unhashed value as key material (kasia-protocol §3 step 2). libsecp256k1's
/// default ECDH returns SHA-256 of the compressed point instead, which is wrong for Kasia.
public struct ECDHSecret: Sendable, Equatable {
    public let rawRepresentation: [UInt8]
}

/// Copies x unchanged: the hash function libsecp256k1 calls with the shared point's coordinates.
private let copyX: secp256k1_ecdh_hash_function = { output, x32, _, _ in
    guard let output, let x32 else { return 0 }
    output.update(from: x32, count: 32)
    return 1
}

extension PrivateKey {
    /// ECDH with `publicKey`, returning the raw x coordinate of the shared point.
    public func sharedSecretFromKeyAgreement(with publicKey: PublicKey) throws(KaspaKeyError) -> ECDHSecret {
        try sharedSecret(with: publicKey.point)
    }

    /// ECDH with the even-y lift of an x-only key (both lifts give the same x).
    public func sharedSecretFromKeyAgreement(with publicKey: XOnlyPublicKey) throws(KaspaKeyError) -> ECDHSecret {
        try sharedSecret(with: publicKey.evenPoint)
    }

    private func sharedSecret(with point: secp256k1_pubkey) throws(KaspaKeyError) -> ECDHSecret {
        var point = point
        var out = [UInt8](repeating: 0, count: 32)
        guard secp256k1_ecdh(Secp256k1Context.shared.pointer, &out, &point, rawRepresentation, copyX, nil) == 1
        else { throw .operationFailed("ECDH") }
        return ECDHSecret(rawRepresentation: out)
    }

    /// A BIP-340 Schnorr signature over a 32-byte message, with fresh auxiliary randomness.
    public func signature(for message: some Collection<UInt8>) throws(KaspaKeyError) -> SchnorrSignature {
        try signature(for: message, auxiliaryRandomness: SecureRandom.bytes(count: 32))
    }

    /// A BIP-340 signature with caller-chosen auxiliary randomness (32 bytes), for test vectors.
    public func signature(
        for message: some Collection<UInt8>, auxiliaryRandomness: [UInt8]
    ) throws(KaspaKeyError) -> SchnorrSignature {
        let message = Array(message)
        guard message.count == 32 else { throw .messageLength(message.count) }
        guard auxiliaryRandomness.count == 32 else { throw .operationFailed("signing (aux must be 32 bytes)") }
        let context = Secp256k1Context.shared.pointer
        var keypair = keypair
        var signature = [UInt8](repeating: 0, count: 64)
        guard secp256k1_schnorrsig_sign32(context, &signature, message, &keypair, auxiliaryRandomness) == 1 else {
            throw .operationFailed("Schnorr signing")
        }
        return try SchnorrSignature(rawRepresentation: signature)
    }

    /// BIP-340 signatures of several 32-byte messages with the key's keypair, each with fresh
    /// auxiliary randomness: a transaction's inputs share the key (issue 15's per-input figure).
    public func signatures(for messages: [[UInt8]]) throws(KaspaKeyError) -> [SchnorrSignature] {
        let context = Secp256k1Context.shared.pointer
        var keypair = keypair
        var signatures: [SchnorrSignature] = []
        signatures.reserveCapacity(messages.count)
        for message in messages {
            guard message.count == 32 else { throw .messageLength(message.count) }
            let auxiliary = SecureRandom.bytes(count: 32)
            var signature = [UInt8](repeating: 0, count: 64)
            guard secp256k1_schnorrsig_sign32(context, &signature, message, &keypair, auxiliary) == 1 else {
                throw .operationFailed("Schnorr signing")
            }
            signatures.append(try SchnorrSignature(rawRepresentation: signature))
        }
        return signatures
    }
}
