public import TandemBasics

/// What shows that a peer derives deterministic aliases (seed 000 §4.3). A handshake
/// `version ≥ 2` is deliberately absent: it is never evidence.
public enum CapabilityEvidence: String, Sendable, Equatable, CaseIterable, Codable {
    /// A message arrived on our deterministic incoming alias.
    case messageOnDeterministicAlias
    /// A handshake with no alias fields arrived.
    case aliaslessHandshake
    /// A handshake said `supportsDeterministicAliases: true`.
    case explicitHint
    /// The user switched the contact to deterministic.
    case userToggle
}

/// Where an incoming message on some alias belongs.
public enum IncomingRoute: Sendable, Equatable {
    case deterministic
    case legacy
    /// Not an alias this conversation reads now.
    case ignored
}

extension ConversationRoutingState {
    /// Accepts a message seen on `alias` and updates traffic times and evidence.
    public mutating func receiveMessage(on alias: Alias, at time: UnixMillis, policy: RoutingPolicy) -> IncomingRoute {
        if alias == deterministic.myAlias {
            lastDeterministicIncomingAt = max(lastDeterministicIncomingAt ?? time, time)
            record(.messageOnDeterministicAlias)
            return .deterministic
        }
        guard legacyIncomingAliases.contains(alias), readsLegacy(policy: policy, now: time) else { return .ignored }
        lastLegacyIncomingAt = max(lastLegacyIncomingAt ?? time, time)
        return .legacy
    }

    /// Applies a handshake from the peer. Alias fields are compatibility hints: a peer's own
    /// legacy alias is watched; nothing here ever changes the deterministic pair (seed §4.4).
    public mutating func receiveHandshake(_ handshake: HandshakePayload, at time: UnixMillis, policy: RoutingPolicy) {
        if handshake.isAliasless { record(.aliaslessHandshake) }
        if handshake.supportsDeterministicAliases == true { record(.explicitHint) }
        if let alias = handshake.alias {
            if alias == deterministic.myAlias {
                // The peer tags its messages with our deterministic incoming alias: it derives it.
                record(.messageOnDeterministicAlias)
            } else if policy.mode != .deterministicOnly, alias != deterministic.theirAlias {
                legacyIncomingAliases.insert(alias)
                lastLegacyIncomingAt = max(lastLegacyIncomingAt ?? time, time)
                if mode == .deterministicOnly && !peerSupportsDeterministic { mode = .hybrid }
            }
        }
        if handshake.theirAlias == deterministic.theirAlias { deterministicAliasKnownToPeer = true }
        if conversationID == nil, let id = handshake.conversationID, Self.isConversationID(id) { conversationID = id }
    }

    /// KaChat's form of a conversation id: 12 lowercase hex digits (kasia-protocol §5.1). Anything
    /// else a peer sends is not kept.
    public static func isConversationID(_ text: String) -> Bool {
        text.utf8.count == 12 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Flips the peer to deterministic. Outgoing switches at once; a conversation that still
    /// has legacy incoming aliases stays `hybrid` so in-flight legacy messages arrive, until the
    /// retention cleanup drops them.
    public mutating func record(_ evidence: CapabilityEvidence) {
        peerSupportsDeterministic = true
        deterministicAliasKnownToPeer = true
        // A pin to legacy holds against evidence: the user lifts it (``setPreference(_:policy:newAlias:)``).
        guard preference != .legacy else { return }
        mode = legacyIncomingAliases.isEmpty ? .deterministicOnly : .hybrid
    }

    /// Applies the user's choice (issue 24 item 5). `deterministic` records the toggle as
    /// evidence; `legacy` pins the conversation to legacy routing, creating our legacy alias with
    /// `newAlias` when there is none (stage A only: returns false in later stages, and nothing
    /// changes); `auto` lifts either. Evidence the toggle stood for is dropped with it unless a
    /// message on our deterministic alias proves it.
    public mutating func setPreference(
        _ preference: RoutingPreference, policy: RoutingPolicy, newAlias: () -> Alias
    ) -> Bool {
        switch preference {
        case .deterministic:
            self.preference = .deterministic
            record(.userToggle)
        case .legacy:
            guard pinLegacy(policy: policy, newAlias: newAlias) else { return false }
            self.preference = .legacy
        case .auto:
            let previous = self.preference
            self.preference = .auto
            if previous == .deterministic, lastDeterministicIncomingAt == nil {
                peerSupportsDeterministic = false
                deterministicAliasKnownToPeer = false
            }
            if peerSupportsDeterministic {
                mode = legacyIncomingAliases.isEmpty ? .deterministicOnly : .hybrid
            } else {
                mode = hasLegacyData ? .hybrid : .deterministicOnly
            }
        }
        return true
    }

    /// Pins the conversation to legacy routing (stage A only), creating our legacy outgoing
    /// alias with `newAlias` when there is none. Returns false when the stage forbids it.
    public mutating func pinLegacy(policy: RoutingPolicy, newAlias: () -> Alias) -> Bool {
        guard policy.createsLegacyAliases else { return false }
        if legacyOutgoingAliases.isEmpty { legacyOutgoingAliases.insert(newAlias()) }
        mode = .legacyOnly
        return true
    }

    /// Phase 5 cleanup: drops legacy aliases that saw no traffic within `retentionMs`.
    /// Returns true when something was purged.
    @discardableResult
    public mutating func purgeStaleLegacyAliases(now: UnixMillis, retentionMs: UInt64) -> Bool {
        guard hasLegacyData, isLegacyStale(now: now, retentionMs: retentionMs) else { return false }
        legacyIncomingAliases.removeAll()
        legacyOutgoingAliases.removeAll()
        lastLegacyIncomingAt = nil
        mode = .deterministicOnly
        return true
    }
}
