#if canImport(Darwin)
    import libsecp256k1
#else
    import CSecp256k1
#endif

/// A BIP-32 extended public key: derives the public keys of non-hardened children, so a wallet
/// can list addresses without its private key.
public struct ExtendedPublicKey: Sendable {
    public let publicKey: PublicKey
    public let attributes: ExtendedKeyAttributes

    public init(publicKey: PublicKey, attributes: ExtendedKeyAttributes) {
        self.publicKey = publicKey
        self.attributes = attributes
    }

    /// The non-hardened child `child` (CKDpub).
    public func derive(_ child: ChildNumber) throws(HDKeyError) -> ExtendedPublicKey {
        guard !child.isHardened else { throw .hardenedFromPublic(child) }
        let digest = ExtendedPrivateKey.hmac(
            key: attributes.chainCode,
            data: publicKey.compressedRepresentation + ExtendedPrivateKey.bigEndian(child.rawValue))
        var point = publicKey.point
        // Fails when IL ≥ n or the sum is the point at infinity: BIP-32's "invalid child".
        guard secp256k1_ec_pubkey_tweak_add(Secp256k1Context.shared.pointer, &point, Array(digest[..<32])) == 1
        else { throw .invalidChild(child) }
        return ExtendedPublicKey(
            publicKey: PublicKey(point: point),
            attributes: ExtendedKeyAttributes(
                chainCode: Array(digest[32...]), depth: attributes.depth &+ 1,
                parent: .publicKey(publicKey), childNumber: child))
    }
}
