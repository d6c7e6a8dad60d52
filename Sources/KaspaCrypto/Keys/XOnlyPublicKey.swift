#if canImport(Darwin)
    import libsecp256k1
#else
    import CSecp256k1
#endif

/// A BIP-340 x-only public key: 32 bytes, the x coordinate of a point with implied even y.
///
/// This is the payload of a Kaspa version-0 (Schnorr) address and the context key of the
/// deterministic aliases (kasia-protocol §6.2).
public struct XOnlyPublicKey: Sendable {
    public let rawRepresentation: [UInt8]
    /// The even-y point with this x, parsed once: validating x and lifting it to a point are the
    /// same square root, and ECDH needs the point.
    let evenPoint: secp256k1_pubkey

    /// Parses 32 bytes and checks that x lies on secp256k1 (about half of random strings do not).
    public init(rawRepresentation bytes: some Collection<UInt8>) throws(KaspaKeyError) {
        let bytes = Array(bytes)
        guard bytes.count == 32 else { throw .xOnlyKeyLength(bytes.count) }
        var point = secp256k1_pubkey()
        guard secp256k1_ec_pubkey_parse(Secp256k1Context.shared.pointer, &point, [0x02] + bytes, 33) == 1 else {
            throw .xOnlyKeyNotOnCurve
        }
        self.rawRepresentation = bytes
        self.evenPoint = point
    }

    /// The x-only form of a point we already hold: negate it when y is odd.
    init(point: secp256k1_pubkey, compressed: [UInt8]) {
        var even = point
        if compressed[0] == 0x03 { _ = secp256k1_ec_pubkey_negate(Secp256k1Context.shared.pointer, &even) }
        self.rawRepresentation = Array(compressed[1...])
        self.evenPoint = even
    }

    /// The point with this x and even y (`02 ‖ x`), the lift both Kasia and KaChat use when an
    /// address gives only x (kasia-protocol §2). ECDH with either lift gives the same x.
    public var evenYPublicKey: PublicKey {
        PublicKey(point: evenPoint, compressed: [0x02] + rawRepresentation)
    }

    /// Verifies a BIP-340 signature over a 32-byte message.
    public func isValidSignature(_ signature: SchnorrSignature, for message: some Collection<UInt8>) -> Bool {
        let message = Array(message)
        guard message.count == 32 else { return false }
        let context = Secp256k1Context.shared.pointer
        var point = evenPoint
        var key = secp256k1_xonly_pubkey()
        guard secp256k1_xonly_pubkey_from_pubkey(context, &key, nil, &point) == 1 else { return false }
        return secp256k1_schnorrsig_verify(context, signature.rawRepresentation, message, 32, &key) == 1
    }
}

extension XOnlyPublicKey: Hashable {
    public static func == (lhs: XOnlyPublicKey, rhs: XOnlyPublicKey) -> Bool {
        lhs.rawRepresentation == rhs.rawRepresentation
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawRepresentation) }
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
