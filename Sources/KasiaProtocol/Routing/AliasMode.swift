/// How one conversation routes (seed 000 §3.1).
public enum AliasMode: String, Sendable, Codable, CaseIterable {
    /// Legacy random aliases only (a peer pinned to the old scheme).
    case legacyOnly
    /// Both: deterministic and legacy incoming; outgoing legacy until the peer shows capability.
    case hybrid
    /// Deterministic aliases only.
    case deterministicOnly
}

/// What the user chose for one conversation (seed 000 §4.3 item 4, issue 24 item 5).
public enum RoutingPreference: String, Sendable, Codable, CaseIterable {
    /// Routing follows the capability evidence.
    case auto
    /// The user says the peer derives deterministic aliases: outgoing switches to them.
    case deterministic
    /// Pinned to legacy routing (stage A only): the peer's legacy aliases are read and ours is
    /// sent with, whatever evidence arrives, until the pin is lifted.
    case legacy
}

/// The global migration flag `derived_aliases_mode` (seed 000 §5.2, §9).
public enum DerivedAliasesMode: String, Sendable, Codable, CaseIterable {
    /// Stage A: read and write both systems as each conversation needs.
    case hybrid
    /// Stages B and C: write deterministic only; read legacy too (in C only where legacy traffic
    /// is recent — see ``RoutingPolicy/legacyRetentionMilliseconds``).
    case deterministicWriteOnly = "deterministic_write_only"
    /// Stage D: legacy send and fetch paths are off everywhere.
    case deterministicOnly = "deterministic_only"
}

/// The global knobs that decide stages A–D (seed 000 §5).
public struct RoutingPolicy: Sendable, Equatable, Codable {
    public var mode: DerivedAliasesMode
    /// Stage C: legacy aliases are read only for contacts whose last legacy traffic is this
    /// recent, and the Phase 5 cleanup purges the rest. `nil` keeps every legacy alias.
    public var legacyRetentionMilliseconds: UInt64?
    /// The client-version cutoff for self-stash writes (seed §5.1 B, §7 item 8): until then
    /// stashes keep compatibility alias fields.
    public var selfStashCutoffReached: Bool

    public init(
        mode: DerivedAliasesMode = .hybrid, legacyRetentionMilliseconds: UInt64? = nil,
        selfStashCutoffReached: Bool = false
    ) {
        self.mode = mode
        self.legacyRetentionMilliseconds = legacyRetentionMilliseconds
        self.selfStashCutoffReached = selfStashCutoffReached
    }

    /// The four stages of seed 000 §5.1 as policies.
    public enum Stage: String, Sendable, CaseIterable {
        case a, b, c, d
    }

    public init(stage: Stage, retentionMilliseconds: UInt64 = 30 * 24 * 3_600_000) {
        switch stage {
        case .a: self.init(mode: .hybrid)
        case .b: self.init(mode: .deterministicWriteOnly)
        case .c: self.init(mode: .deterministicWriteOnly, legacyRetentionMilliseconds: retentionMilliseconds)
        case .d: self.init(mode: .deterministicOnly, selfStashCutoffReached: true)
        }
    }

    /// Self-stash writes keep compatibility fields until the cutoff, and never in stage D.
    public var selfStashWritePolicy: SavedHandshake.WritePolicy {
        selfStashCutoffReached || mode == .deterministicOnly ? .aliasless : .compatibility
    }

    /// Whether new random legacy aliases may still be created (stage A only).
    public var createsLegacyAliases: Bool { mode == .hybrid }
}
