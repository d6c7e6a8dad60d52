import Crypto

#if canImport(Darwin)
    import libsecp256k1
#else
    import CSecp256k1
#endif

/// What a private and a public extended key share: where in the tree the key sits.
public struct ExtendedKeyAttributes: Sendable, Hashable {
    public let chainCode: [UInt8]
    public let depth: UInt8
    /// Who the parent is, as far as this key knows.
    public let parent: ExtendedKeyParent
    public let childNumber: ChildNumber

    public init(chainCode: [UInt8], depth: UInt8, parent: ExtendedKeyParent, childNumber: ChildNumber) {
        self.chainCode = chainCode
        self.depth = depth
        self.parent = parent
        self.childNumber = childNumber
    }
}

/// A key's parent: none (the master key), its public key (a key derived here), or only the four
/// fingerprint bytes a serialised key records. The fingerprint itself (RIPEMD-160 of SHA-256)
/// is computed only where keys are written as text (`ExtendedKeyText`), so deriving keys needs
/// no RIPEMD-160, which Apple platforms do not ship.
public enum ExtendedKeyParent: Sendable, Hashable {
    case none
    case publicKey(PublicKey)
    case fingerprint([UInt8])
}

/// A BIP-32 extended private key: a secp256k1 key and a chain code, from which a tree of keys
/// follows. Keys come from libsecp256k1 (tweak addition mod n) and HMAC-SHA512 from swift-crypto.
public struct ExtendedPrivateKey: Sendable {
    public let privateKey: PrivateKey
    public let attributes: ExtendedKeyAttributes

    /// The master key of a BIP-32 seed (16 to 64 bytes; a BIP-39 seed is 64).
    public init(seed: some Collection<UInt8>) throws(HDKeyError) {
        let seed = Array(seed)
        guard (16...64).contains(seed.count) else { throw .seedLength(seed.count) }
        let digest = Self.hmac(key: Array("Bitcoin seed".utf8), data: seed)
        guard let key = try? PrivateKey(rawRepresentation: digest[..<32]) else { throw .invalidMasterKey }
        privateKey = key
        attributes = ExtendedKeyAttributes(
            chainCode: Array(digest[32...]), depth: 0, parent: .none, childNumber: ChildNumber(rawValue: 0))
    }

    public init(privateKey: PrivateKey, attributes: ExtendedKeyAttributes) {
        self.privateKey = privateKey
        self.attributes = attributes
    }

    /// The child `child` (CKDpriv).
    public func derive(_ child: ChildNumber) throws(HDKeyError) -> ExtendedPrivateKey {
        let data =
            child.isHardened
            ? [0] + privateKey.rawRepresentation + Self.bigEndian(child.rawValue)
            : privateKey.publicKey.compressedRepresentation + Self.bigEndian(child.rawValue)
        let digest = Self.hmac(key: attributes.chainCode, data: data)
        var key = privateKey.rawRepresentation
        // Fails when IL ≥ n or the sum is 0: BIP-32's "invalid child".
        guard secp256k1_ec_seckey_tweak_add(Secp256k1Context.shared.pointer, &key, Array(digest[..<32])) == 1,
            let childKey = try? PrivateKey(rawRepresentation: key)
        else { throw .invalidChild(child) }
        return ExtendedPrivateKey(
            privateKey: childKey,
            attributes: ExtendedKeyAttributes(
                chainCode: Array(digest[32...]), depth: attributes.depth &+ 1,
                parent: .publicKey(privateKey.publicKey), childNumber: child))
    }

    /// The key at `path` below this one (a path from `m` when this is the master key).
    public func derive(_ path: DerivationPath) throws(HDKeyError) -> ExtendedPrivateKey {
        var key = self
        for child in path.components { key = try key.derive(child) }
        return key
    }

    /// The extended public key ("neutered": the same tree, without the private keys).
    public var extendedPublicKey: ExtendedPublicKey {
        ExtendedPublicKey(publicKey: privateKey.publicKey, attributes: attributes)
    }

    static func hmac(key: [UInt8], data: [UInt8]) -> [UInt8] {
        Array(HMAC<SHA512>.authenticationCode(for: data, using: SymmetricKey(data: key)))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

extension ExtendedPrivateKey: CustomStringConvertible {
    /// Never the key.
    public var description: String { "ExtendedPrivateKey(depth \(attributes.depth))" }
}
