public import KaspaCrypto
public import TandemBasics

/// Per-contact routing: the canonical source of which aliases to watch and which to send with
/// (seed 000 §3.1–3.2). A pure value; the shell persists it and performs the actions.
public struct ConversationRoutingState: Sendable, Equatable, Codable {
    public let contactAddress: KaspaAddress
    /// Derived from our key and the contact's address; never from a handshake.
    public let deterministic: AliasPair
    /// The peer's legacy aliases (their own tags), learned from handshakes and stashes.
    public var legacyIncomingAliases: Set<Alias>
    /// Our legacy aliases for this peer, announced in our old handshakes.
    public var legacyOutgoingAliases: Set<Alias>
    public var mode: AliasMode
    /// Capability evidence seen (seed §4.3): the peer derives deterministic aliases.
    public var peerSupportsDeterministic: Bool
    /// The peer knows our deterministic outgoing alias — it derives it, or our handshake
    /// announced it. Older iOS drops messages on aliases outside its known set (seed §7 items
    /// 3, 6, 7), so deterministic sends to a legacy peer wait for this.
    public var deterministicAliasKnownToPeer: Bool
    public var lastLegacyIncomingAt: UnixMillis?
    public var lastDeterministicIncomingAt: UnixMillis?
    /// When the state was created (migration or first contact); the legacy retention window
    /// counts from here until legacy traffic is seen.
    public var createdAt: UnixMillis
    /// The user's choice for this conversation (issue 24 item 5): follow the evidence, or the
    /// capability toggle, or the pin to legacy routing.
    public var preference: RoutingPreference = .auto
    /// KaChat's id of this conversation (`conversationIds[addr]`, kasia-protocol §5.1, §7): the
    /// first one either side's handshake carried. A response carries the request's id.
    public var conversationID: String?
    /// The root of what the peer last wrote to us (kasia-protocol §16): evidence of what it reads.
    public var peerRoot: RootEvidence?
    /// The user's choice of root for this conversation (issue 43 item 2).
    public var rootPreference: RootPreference = .auto
    /// The app the peer's payloads show it runs (issue 43 item 3): its payment form.
    public var peerApp: PeerAppEvidence?

    /// A state for a contact, with the deterministic pair derived from `privateKey`.
    ///
    /// Mode is `hybrid` when legacy aliases exist, else `deterministicOnly` (seed §4.1 step 4).
    public init(
        contact: KaspaAddress, privateKey: PrivateKey, legacyIncoming: Set<Alias> = [],
        legacyOutgoing: Set<Alias> = [], now: UnixMillis, scheme: AliasScheme = .chat
    ) throws(KaspaAddressError) {
        try self.init(
            contact: contact, deterministic: AliasPair(privateKey: privateKey, peer: contact, scheme: scheme),
            legacyIncoming: legacyIncoming, legacyOutgoing: legacyOutgoing, now: now)
    }

    /// A state from an already-derived pair.
    public init(
        contact: KaspaAddress, deterministic: AliasPair, legacyIncoming: Set<Alias> = [],
        legacyOutgoing: Set<Alias> = [], now: UnixMillis
    ) {
        self.contactAddress = contact
        self.deterministic = deterministic
        self.legacyIncomingAliases = legacyIncoming
        self.legacyOutgoingAliases = legacyOutgoing
        self.mode = legacyIncoming.isEmpty && legacyOutgoing.isEmpty ? .deterministicOnly : .hybrid
        self.peerSupportsDeterministic = false
        self.deterministicAliasKnownToPeer = false
        self.createdAt = now
    }

    /// True when legacy aliases exist for this peer.
    public var hasLegacyData: Bool { !legacyIncomingAliases.isEmpty || !legacyOutgoingAliases.isEmpty }

    /// The primary legacy outgoing alias: the lexicographically smallest, as KaChat picks it.
    public var primaryLegacyOutgoingAlias: Alias? { legacyOutgoingAliases.min() }
}
