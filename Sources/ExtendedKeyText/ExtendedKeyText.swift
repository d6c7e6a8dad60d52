public import KaspaCrypto

/// BIP-32's text form of extended keys (issue 44): the 78 serialised bytes in Base58Check —
/// `xprv`/`xpub` (BIP-32's own, and its test vectors'), `kprv`/`kpub` (rusty-kaspa's). Apart from
/// `KaspaCrypto` because the parent fingerprint needs RIPEMD-160 (Debian's nettle here), which
/// Apple platforms do not ship; deriving keys needs none of it.
public struct ExtendedKeyVersion: Sendable, Hashable {
    public let privateVersion: UInt32
    public let publicVersion: UInt32

    /// `xprv` / `xpub`.
    public static let bitcoin = ExtendedKeyVersion(privateVersion: 0x0488_ADE4, publicVersion: 0x0488_B21E)
    /// `tprv` / `tpub`.
    public static let bitcoinTestnet = ExtendedKeyVersion(privateVersion: 0x0435_8394, publicVersion: 0x0435_87CF)
    /// `kprv` / `kpub`: rusty-kaspa's mainnet prefix.
    public static let kaspa = ExtendedKeyVersion(privateVersion: 0x038F_2EF4, publicVersion: 0x038F_332E)
    /// `ktrv` / `ktub`: rusty-kaspa's testnet, devnet and simnet prefix.
    public static let kaspaTestnet = ExtendedKeyVersion(privateVersion: 0x0390_9E07, publicVersion: 0x0390_A241)

    static let known: [ExtendedKeyVersion] = [.bitcoin, .bitcoinTestnet, .kaspa, .kaspaTestnet]

    /// `kprv`/`kpub` on mainnet, `ktrv`/`ktub` elsewhere, as rusty-kaspa writes them.
    public static func kaspa(_ network: KaspaNetwork) -> ExtendedKeyVersion {
        network == .mainnet ? .kaspa : .kaspaTestnet
    }
}

/// Why a serialised extended key was refused (BIP-32's test vector 5 names each).
public enum ExtendedKeyTextError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text is not Base58.
    case notBase58
    /// The Base58Check checksum does not match.
    case checksum
    /// A serialised extended key is 78 bytes.
    case serializedLength(Int)
    /// The four version bytes name no known extended-key kind.
    case unknownVersion(UInt32)
    /// The version names a private key and the key bytes a public one, or the reverse.
    case versionMismatch
    /// The key bytes: a private key starts 00, a public key 02 or 03.
    case keyPrefix(UInt8)
    /// Depth 0 is the master key: its parent fingerprint and index are zero.
    case masterWithParent
    /// The serialised private or public key is not a valid secp256k1 key.
    case invalidKey(KaspaKeyError)

    public var description: String {
        switch self {
        case .notBase58: "an extended key is Base58 text"
        case .checksum: "the extended key's checksum does not match"
        case .serializedLength(let n): "an extended key is 78 bytes, not \(n)"
        case .unknownVersion(let version): "unknown extended key version \(String(version, radix: 16))"
        case .versionMismatch: "the extended key's version and key kind disagree"
        case .keyPrefix(let prefix): "extended key bytes cannot start with \(String(prefix, radix: 16))"
        case .masterWithParent: "an extended key of depth 0 has no parent fingerprint or index"
        case .invalidKey(let error): "extended key: \(error)"
        }
    }
}

extension ExtendedKeyAttributes {
    /// The four fingerprint bytes of the parent: zero for the master key.
    public var parentFingerprint: [UInt8] {
        switch parent {
        case .none: [0, 0, 0, 0]
        case .publicKey(let key): Hash160.fingerprint(of: key)
        case .fingerprint(let bytes): bytes
        }
    }
}

extension ExtendedPrivateKey {
    /// The first four bytes of this key's identifier: its children's parent fingerprint.
    public var fingerprint: [UInt8] { Hash160.fingerprint(of: privateKey.publicKey) }

    /// Base58Check of the 78 serialised bytes (`xprv…`, or `kprv…` with ``ExtendedKeyVersion/kaspa``).
    public func serialized(_ version: ExtendedKeyVersion = .bitcoin) -> String {
        Base58Check.encode(
            ExtendedKeyCoding.header(version.privateVersion, attributes) + [0] + privateKey.rawRepresentation)
    }

    /// Parses a serialised extended private key of any known version and checks it whole.
    public init(serialized text: some StringProtocol) throws(ExtendedKeyTextError) {
        let (isPrivate, attributes, key) = try ExtendedKeyCoding.decode(text)
        guard isPrivate else { throw .versionMismatch }
        guard key[0] == 0 else { throw .keyPrefix(key[0]) }
        let privateKey: PrivateKey
        do { privateKey = try PrivateKey(rawRepresentation: key[1...]) } catch { throw .invalidKey(error) }
        self.init(privateKey: privateKey, attributes: attributes)
    }
}

extension ExtendedPublicKey {
    /// The first four bytes of this key's identifier.
    public var fingerprint: [UInt8] { Hash160.fingerprint(of: publicKey) }

    /// Base58Check of the 78 serialised bytes (`xpub…`, or `kpub…` with ``ExtendedKeyVersion/kaspa``).
    public func serialized(_ version: ExtendedKeyVersion = .bitcoin) -> String {
        Base58Check.encode(
            ExtendedKeyCoding.header(version.publicVersion, attributes) + publicKey.compressedRepresentation)
    }

    /// Parses a serialised extended public key of any known version and checks it whole.
    public init(serialized text: some StringProtocol) throws(ExtendedKeyTextError) {
        let (isPrivate, attributes, key) = try ExtendedKeyCoding.decode(text)
        guard !isPrivate else { throw .versionMismatch }
        guard key[0] == 2 || key[0] == 3 else { throw .keyPrefix(key[0]) }
        let publicKey: PublicKey
        do { publicKey = try PublicKey(compressedRepresentation: key) } catch { throw .invalidKey(error) }
        self.init(publicKey: publicKey, attributes: attributes)
    }
}

/// The 78-byte layout shared by both kinds: version, depth, parent fingerprint, child number,
/// chain code, key data.
enum ExtendedKeyCoding {
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func header(_ version: UInt32, _ attributes: ExtendedKeyAttributes) -> [UInt8] {
        bigEndian(version) + [attributes.depth] + attributes.parentFingerprint
            + bigEndian(attributes.childNumber.rawValue) + attributes.chainCode
    }

    /// Version kind, attributes and the 33 key bytes. A key whose bytes contradict its version
    /// (00 under a public version, 02/03 under a private one) is a mismatch; any other prefix is
    /// a bad prefix.
    static func decode(_ text: some StringProtocol) throws(ExtendedKeyTextError) -> (
        Bool, ExtendedKeyAttributes, [UInt8]
    ) {
        let bytes = try Base58Check.decode(text)
        guard bytes.count == 78 else { throw .serializedLength(bytes.count) }
        let version = bytes[0..<4].reduce(UInt32(0)) { (value: UInt32, byte: UInt8) in value << 8 | UInt32(byte) }
        let isPrivate: Bool
        if ExtendedKeyVersion.known.contains(where: { $0.privateVersion == version }) {
            isPrivate = true
        } else if ExtendedKeyVersion.known.contains(where: { $0.publicVersion == version }) {
            isPrivate = false
        } else {
            throw .unknownVersion(version)
        }
        let key = Array(bytes[45...])
        switch key[0] {
        case 0 where !isPrivate, 2 where isPrivate, 3 where isPrivate: throw .versionMismatch
        case 0, 2, 3: break
        default: throw .keyPrefix(key[0])
        }
        let depth = bytes[4]
        let fingerprint = Array(bytes[5..<9])
        let child = bytes[9..<13].reduce(UInt32(0)) { (value: UInt32, byte: UInt8) in value << 8 | UInt32(byte) }
        if depth == 0, fingerprint != [0, 0, 0, 0] || child != 0 { throw .masterWithParent }
        let attributes = ExtendedKeyAttributes(
            chainCode: Array(bytes[13..<45]), depth: depth, parent: depth == 0 ? .none : .fingerprint(fingerprint),
            childNumber: ChildNumber(rawValue: child))
        return (isPrivate, attributes, key)
    }
}
