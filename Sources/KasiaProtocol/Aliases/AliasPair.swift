import Crypto
public import KaspaCrypto

/// The two deterministic aliases of a conversation, as seen from one side (kasia-protocol §6.2).
///
/// `myAlias` is the one I watch (the peer sends with it); `theirAlias` is the one I send with.
/// Hence A's `theirAlias` is B's `myAlias` and vice versa.
public struct AliasPair: Sendable, Hashable, Codable {
    public let myAlias: Alias
    public let theirAlias: Alias

    public init(myAlias: Alias, theirAlias: Alias) {
        self.myAlias = myAlias
        self.theirAlias = theirAlias
    }

    /// Derives the pair for `privateKey` talking to the owner of `peer` (a v0 address).
    ///
    /// `ss` = raw ECDH x of `a·lift_even(peer.x)`; each alias is
    /// `HKDF-SHA256(salt: none, ikm: ss, info: scheme(ss, ctx), L: 6)` where ctx is my x-only key
    /// for `myAlias` and the peer's for `theirAlias`. The network prefix plays no part.
    public init(privateKey: PrivateKey, peer: KaspaAddress, scheme: AliasScheme = .chat) throws(KaspaAddressError) {
        let peerKey = try peer.xOnlyPublicKey()
        try self.init(privateKey: privateKey, peer: peerKey, scheme: scheme)
    }

    /// Derives the pair for a peer's x-only key.
    public init(privateKey: PrivateKey, peer: XOnlyPublicKey, scheme: AliasScheme = .chat) throws(KaspaAddressError) {
        let shared: [UInt8]
        do { shared = try privateKey.sharedSecretFromKeyAgreement(with: peer).rawRepresentation } catch {
            throw .invalidPublicKey(error)
        }
        // Both aliases use the same IKM, so one HKDF extract serves both expands. An empty salt
        // is HMAC-identical to RFC 5869's absent salt (HashLen zero bytes).
        let pseudoRandomKey = HKDF<SHA256>.extract(inputKeyMaterial: SymmetricKey(data: shared), salt: [UInt8]())
        func alias(context: [UInt8]) -> Alias {
            let key = HKDF<SHA256>.expand(
                pseudoRandomKey: pseudoRandomKey,
                info: scheme.info(sharedX: shared, context: context),
                outputByteCount: 6
            )
            return Alias(sixBytes: key.withUnsafeBytes { Array($0) })
        }
        self.myAlias = alias(context: privateKey.xOnlyPublicKey.rawRepresentation)
        self.theirAlias = alias(context: peer.rawRepresentation)
    }
}
