public import TandemBasics

extension ConversationRoutingState {
    /// Aliases to watch and fetch for the peer's messages (seed §3.2): the deterministic
    /// incoming alias always; legacy incoming aliases while the conversation still reads them,
    /// never in stage D, and in stage C only while legacy traffic is recent.
    public func incomingAliases(policy: RoutingPolicy, now: UnixMillis) -> Set<Alias> {
        var aliases: Set<Alias> = [deterministic.myAlias]
        if readsLegacy(policy: policy, now: now) { aliases.formUnion(legacyIncomingAliases) }
        return aliases
    }

    /// Aliases under which our own sent messages are found again (resync from another device).
    public func ownSentAliases(policy: RoutingPolicy) -> Set<Alias> {
        var aliases: Set<Alias> = [deterministic.theirAlias]
        if policy.mode != .deterministicOnly { aliases.formUnion(legacyOutgoingAliases) }
        return aliases
    }

    /// Whether legacy incoming aliases are read now.
    public func readsLegacy(policy: RoutingPolicy, now: UnixMillis) -> Bool {
        guard policy.mode != .deterministicOnly, mode != .deterministicOnly, !legacyIncomingAliases.isEmpty else {
            return false
        }
        guard let retention = policy.legacyRetentionMilliseconds else { return true }
        return !isLegacyStale(now: now, retentionMs: retention)
    }

    /// The alias to tag an outgoing message with (seed §3.2 and §5.1).
    ///
    /// Stage A follows the conversation's mode: legacy until capability is confirmed. From
    /// stage B on, every write is deterministic; ``composerState(policy:)`` holds a send back
    /// until a legacy peer has learned the deterministic alias.
    public func sendAlias(policy: RoutingPolicy) -> Alias {
        guard policy.mode == .hybrid else { return deterministic.theirAlias }
        switch mode {
        case .deterministicOnly: return deterministic.theirAlias
        case .hybrid:
            return peerSupportsDeterministic
                ? deterministic.theirAlias : (primaryLegacyOutgoingAlias ?? deterministic.theirAlias)
        case .legacyOnly: return primaryLegacyOutgoingAlias ?? deterministic.theirAlias
        }
    }

    /// Whether the peer will find a message sent with `alias`: it derives our deterministic
    /// alias, learned it from our handshake, or it is one of the legacy aliases we announced.
    public func peerWatches(_ alias: Alias) -> Bool {
        if legacyOutgoingAliases.contains(alias) { return true }
        return alias == deterministic.theirAlias && (peerSupportsDeterministic || deterministicAliasKnownToPeer)
    }

    /// The alias fields of the next handshake to this peer (seed §4.4, §5.1): always `version`
    /// 1; in stage A the compatibility `alias` for everyone; in B and C alias-less only for
    /// peers confirmed deterministic; in D alias-less for all.
    public func handshakeAliasPolicy(policy: RoutingPolicy) -> HandshakePayload.AliasPolicy {
        switch policy.mode {
        case .deterministicOnly: return .aliasless
        case .deterministicWriteOnly where peerSupportsDeterministic: return .aliasless
        case .hybrid, .deterministicWriteOnly: return .compatibility(outgoingAlias: sendAlias(policy: policy))
        }
    }

    /// The next handshake to send this peer. The compatibility alias always equals
    /// ``sendAlias(policy:)`` (seed §7 item 6), and the payload carries the explicit capability
    /// hint, which old clients ignore.
    public func handshake(
        policy: RoutingPolicy, isResponse: Bool, timestampMs: Int64,
        conversationID: String?
    ) -> HandshakePayload {
        var payload = HandshakePayload.outgoing(
            policy: handshakeAliasPolicy(policy: policy), timestampMilliseconds: timestampMs, isResponse: isResponse,
            recipientAddress: contactAddress.description, conversationID: conversationID)
        if !payload.isAliasless { payload.supportsDeterministicAliases = true }
        return payload
    }

    /// Records that `payload` went out: an announced deterministic alias is now known to the
    /// peer, which lifts the seed §7 item 7 hold on deterministic sends.
    public mutating func recordHandshakeSent(_ payload: HandshakePayload) {
        if payload.alias == deterministic.theirAlias { deterministicAliasKnownToPeer = true }
        if conversationID == nil, let id = payload.conversationID, Self.isConversationID(id) { conversationID = id }
    }

    /// True when no legacy traffic arrived within `retentionMs` (counting from creation when
    /// none ever arrived).
    public func isLegacyStale(now: UnixMillis, retentionMs: UInt64) -> Bool {
        let last = lastLegacyIncomingAt ?? createdAt
        return last.milliseconds(to: now) > Int64(clamping: retentionMs)
    }
}
