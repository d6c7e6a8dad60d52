#if canImport(Darwin)
    import libsecp256k1
#else
    import CSecp256k1
#endif

/// A secp256k1 public key with full parity: the 33-byte SEC1-compressed form.
///
/// Used for ECDSA addresses (version 1), for the ephemeral key inside a sealed Kasia message and
/// as the ECDH peer.
public struct PublicKey: Sendable, Hashable {
    /// The parsed point, kept so repeated ECDH does not redo the square root of decompression.
    let point: secp256k1_pubkey
    /// `02|03 ‖ x`.
    public let compressedRepresentation: [UInt8]

    /// Parses a 33-byte compressed key; rejects other lengths and prefixes and points off the curve.
    public init(compressedRepresentation bytes: some Collection<UInt8>) throws(KaspaKeyError) {
        let bytes = Array(bytes)
        guard bytes.count == 33, bytes[0] == 0x02 || bytes[0] == 0x03 else {
            throw .publicKeyNotCompressed(length: bytes.count, prefix: bytes.first)
        }
        var point = secp256k1_pubkey()
        guard secp256k1_ec_pubkey_parse(Secp256k1Context.shared.pointer, &point, bytes, 33) == 1 else {
            throw .publicKeyNotOnCurve
        }
        self.point = point
        self.compressedRepresentation = bytes
    }

    /// For a point libsecp256k1 produced; serialises it.
    init(point: secp256k1_pubkey) {
        var point = point
        var out = [UInt8](repeating: 0, count: 33)
        var length = 33
        _ = secp256k1_ec_pubkey_serialize(
            Secp256k1Context.shared.pointer, &out, &length, &point, UInt32(SECP256K1_EC_COMPRESSED))
        self.init(point: point, compressed: out)
    }

    /// For a point whose compressed form the caller already has.
    init(point: secp256k1_pubkey, compressed: [UInt8]) {
        self.point = point
        self.compressedRepresentation = compressed
    }

    /// The 32-byte x coordinate (BIP-340 x-only form; parity dropped).
    public var xOnly: XOnlyPublicKey { XOnlyPublicKey(point: point, compressed: compressedRepresentation) }

    /// True when y is even (prefix 02).
    public var hasEvenY: Bool { compressedRepresentation[0] == 0x02 }

    public static func == (lhs: PublicKey, rhs: PublicKey) -> Bool {
        lhs.compressedRepresentation == rhs.compressedRepresentation
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(compressedRepresentation) }
}
