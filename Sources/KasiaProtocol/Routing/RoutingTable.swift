public import KaspaCrypto
public import TandemBasics

/// Every conversation's routing state, with the lookups a client runs on each poll: the watched
/// alias set for fetching and push registration, and which conversation an alias belongs to.
public struct RoutingTable: Sendable, Equatable {
    public private(set) var states: [KaspaAddress: ConversationRoutingState]

    public init(_ states: some Sequence<ConversationRoutingState> = []) {
        self.states = Dictionary(states.map { ($0.contactAddress, $0) }, uniquingKeysWith: { _, last in last })
    }

    public subscript(contact: KaspaAddress) -> ConversationRoutingState? {
        get { states[contact] }
        set { states[contact] = newValue }
    }

    /// Push/watch export (seed Phase 2 item 4): every deterministic incoming alias, plus legacy
    /// aliases where the stage and the conversation still read them.
    public func watchedIncomingAliases(policy: RoutingPolicy, now: UnixMillis) -> Set<Alias> {
        var aliases = Set<Alias>(minimumCapacity: states.count * 2)
        // Index the values in place: copying each state out would retain and release its sets.
        let values = states.values
        for index in values.indices {
            aliases.insert(values[index].deterministic.myAlias)
            if values[index].readsLegacy(policy: policy, now: now) {
                for alias in values[index].legacyIncomingAliases { aliases.insert(alias) }
            }
        }
        return aliases
    }

    /// The contact whose conversation reads `alias` now, if any.
    public func contact(forIncoming alias: Alias, policy: RoutingPolicy, now: UnixMillis) -> KaspaAddress? {
        for state in states.values where state.incomingAliases(policy: policy, now: now).contains(alias) {
            return state.contactAddress
        }
        return nil
    }

    /// Phase 5 cleanup over all conversations; returns the contacts that changed.
    public mutating func purgeStaleLegacyAliases(now: UnixMillis, retentionMs: UInt64) -> [KaspaAddress] {
        var changed: [KaspaAddress] = []
        for key in Array(states.keys) {
            if states[key]?.purgeStaleLegacyAliases(now: now, retentionMs: retentionMs) == true { changed.append(key) }
        }
        return changed
    }
}
