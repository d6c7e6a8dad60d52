/// What the message composer may do for a conversation (seed 000 Phase 4): decided by routing
/// state alone, not by counting handshakes or looking for legacy aliases.
public enum ComposerState: Sendable, Equatable {
    /// Send with this alias; the peer watches it.
    case ready(sendAlias: Alias)
    /// Send a handshake announcing this alias first: the peer has a legacy alias set for us and
    /// would drop a message on an alias it does not know (seed §7 items 3, 6, 7).
    case needsHandshake(announcing: Alias)
    /// Sending is possible but may not reach the peer; the UI should say why.
    case warning(ComposerWarning, sendAlias: Alias)
}

public enum ComposerWarning: String, Sendable, Equatable {
    /// Stage D against a peer known only by legacy aliases (seed §8 E2E 3): its replies on legacy
    /// aliases are no longer read, and ours reach it only if it learned our deterministic alias.
    case legacyPeerMayNotReceive
    /// A new contact that has not shown deterministic support; an older client sees nothing
    /// until it receives a handshake from us.
    case peerCapabilityUnknown

    /// What the sender is told (seed 000 Phase 4: the warning reaches the composer).
    public var explanation: String {
        switch self {
        case .legacyPeerMayNotReceive:
            "the peer is known only by legacy aliases, which this rollout stage no longer uses; it reads the message only if it derives deterministic aliases"
        case .peerCapabilityUnknown:
            "the peer has not shown that it derives deterministic aliases and no handshake announced ours; an older client sees nothing until it receives a handshake"
        }
    }
}

extension ConversationRoutingState {
    /// The composer state under `policy`.
    public func composerState(policy: RoutingPolicy) -> ComposerState {
        let alias = sendAlias(policy: policy)
        if policy.mode == .deterministicOnly, hasLegacyData, !peerSupportsDeterministic {
            return .warning(.legacyPeerMayNotReceive, sendAlias: alias)
        }
        if peerWatches(alias) { return .ready(sendAlias: alias) }
        guard hasLegacyData else { return .warning(.peerCapabilityUnknown, sendAlias: alias) }
        // An existing legacy chat: announce the deterministic alias before switching to it.
        return .needsHandshake(announcing: alias)
    }
}
