import CanonicalJSON
public import KaspaCrypto

/// The handshake a client stashes for itself (`self_stash:saved_handshake`, encrypted to its own
/// address) so another of its devices can restore the conversation (kasia-protocol §5.4).
///
/// Target role (seed 000 §3.4): contact linkage only — partner address and response flag.
/// Aliases are derived from the partner address on restore, never read from the stash.
public struct SavedHandshake: Sendable, Equatable {
    public var partnerAddress: KaspaAddress
    public var isResponse: Bool
    public var timestampMilliseconds: Int64?
    /// Legacy compatibility fields: our outgoing alias and the peer's alias, if written.
    public var alias: Alias?
    public var theirAlias: Alias?

    public init(
        partnerAddress: KaspaAddress, isResponse: Bool, timestampMilliseconds: Int64?,
        alias: Alias? = nil, theirAlias: Alias? = nil
    ) {
        self.partnerAddress = partnerAddress
        self.isResponse = isResponse
        self.timestampMilliseconds = timestampMilliseconds
        self.alias = alias
        self.theirAlias = theirAlias
    }

    /// How a stash is written during the migration (seed §5.1 stage B, §7 item 8).
    public enum WritePolicy: Sendable, Equatable {
        /// Until the client-version cutoff: keep `alias` (+ `theirAlias` when known) so older iOS
        /// restore logic, which needs at least contact + our alias, still works.
        case compatibility
        /// After the cutoff: partner address and response flag only.
        case aliasless
    }

    /// Decodes KaChat's stash JSON, camelCase or snake_case (`partner_address`,
    /// `recipient_address`, `their_alias`). The partner comes from `partnerAddress`, falling back
    /// to `recipientAddress`.
    public init(decoding plaintext: String) throws(HandshakeError) {
        let object = try HandshakePayload.parseObject(Substring(plaintext))
        let handshake = try HandshakePayload(object: object)
        let fields = HandshakeFields(object)
        guard let partnerText = try fields.string("partnerAddress", "partner_address") ?? handshake.recipientAddress
        else { throw .missingPartnerAddress }
        guard let partner = try? KaspaAddress(partnerText.lowercased()) else { throw .invalidField("partnerAddress") }
        var timestamp: Int64?
        if case .milliseconds(let ms) = handshake.timestamp { timestamp = ms }
        self.init(
            partnerAddress: partner, isResponse: handshake.isResponse, timestampMilliseconds: timestamp,
            alias: handshake.alias, theirAlias: handshake.theirAlias)
    }

    /// The JSON text to seal to our own address under `policy`.
    public func jsonText(policy: WritePolicy) throws(HandshakeError) -> String {
        let partner = JSONValue.string(partnerAddress.description)
        var members: [(String, JSONValue)] = [
            ("type", .string("handshake")), ("version", .number(1)),
            ("partnerAddress", partner), ("recipientAddress", partner),
        ]
        if let timestampMilliseconds { members.append(("timestamp", .number(Double(timestampMilliseconds)))) }
        if isResponse { members.append(("isResponse", .bool(true))) }
        if policy == .compatibility {
            if let alias { members.append(("alias", .string(alias.rawValue))) }
            if let theirAlias { members.append(("theirAlias", .string(theirAlias.rawValue))) }
        }
        return try HandshakePayload.canonicalText(members)
    }

    /// Restores the deterministic pair from the partner address alone (seed §3.4, §8 integration 3).
    public func derivedAliases(privateKey: PrivateKey, scheme: AliasScheme = .chat) throws(KaspaAddressError)
        -> AliasPair
    {
        try AliasPair(privateKey: privateKey, peer: partnerAddress, scheme: scheme)
    }
}
