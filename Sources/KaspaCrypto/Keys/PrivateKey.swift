import TandemBasics

#if canImport(Darwin)
    import libsecp256k1
#else
    import CSecp256k1
#endif

/// A secp256k1 private key: a scalar in `1 ..< n`.
///
/// The public key is computed once at creation, because every use of a wallet key (aliases,
/// decryption, signing) needs it and point multiplication dominates their cost.
public struct PrivateKey: Sendable {
    /// The 32-byte big-endian scalar. Handle with care: this is the secret.
    public let rawRepresentation: [UInt8]
    /// The public key with its real parity.
    public let publicKey: PublicKey
    /// The BIP-340 x-only public key (parity ignored), kept because aliases use it every time.
    public let xOnlyPublicKey: XOnlyPublicKey
    /// The scalar with its public point, as BIP-340 signing takes it: made once here instead of
    /// once per signature, where it cost a point multiplication as dear as the signature itself.
    let keypair: secp256k1_keypair

    /// Imports 32 bytes; rejects 0 and values ≥ n.
    public init(rawRepresentation bytes: some Collection<UInt8>) throws(KaspaKeyError) {
        let bytes = Array(bytes)
        guard bytes.count == 32 else { throw .privateKeyLength(bytes.count) }
        let context = Secp256k1Context.shared.pointer
        guard secp256k1_ec_seckey_verify(context, bytes) == 1 else { throw .privateKeyOutOfRange }
        var keypair = secp256k1_keypair()
        var point = secp256k1_pubkey()
        guard secp256k1_keypair_create(context, &keypair, bytes) == 1,
            secp256k1_keypair_pub(context, &point, &keypair) == 1
        else { throw .operationFailed("public key creation") }
        self.rawRepresentation = bytes
        self.keypair = keypair
        self.publicKey = PublicKey(point: point)
        self.xOnlyPublicKey = publicKey.xOnly
    }

    /// Imports 64 hex characters (either case).
    public init(hex: some StringProtocol) throws(KaspaKeyError) {
        let bytes: [UInt8]
        do { bytes = try Hex.decode(hex) } catch { throw .privateKeyNotHex(error.description) }
        try self.init(rawRepresentation: bytes)
    }

    /// A fresh key from the system CSPRNG.
    public static func generate() -> PrivateKey {
        while true {
            // Rejection sampling: the chance of drawing 0 or ≥ n is below 2^-127.
            if let key = try? PrivateKey(rawRepresentation: SecureRandom.bytes(count: 32)) { return key }
        }
    }

    /// Lowercase hex of the scalar.
    public var hexRepresentation: String { Hex.encode(rawRepresentation) }
}

extension PrivateKey: Equatable {
    /// Constant-time comparison of the scalars.
    public static func == (lhs: PrivateKey, rhs: PrivateKey) -> Bool {
        var difference: UInt8 = 0
        for (a, b) in zip(lhs.rawRepresentation, rhs.rawRepresentation) { difference |= a ^ b }
        return difference == 0
    }
}
