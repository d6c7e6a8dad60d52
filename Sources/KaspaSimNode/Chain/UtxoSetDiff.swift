public import KaspaRPC
public import KaspaTransaction

/// The net change of the UTXO set at one acceptance (a block, a fund, a reorg): an output
/// created and spent within it is in neither list (kaspa-node.md §8). Entries carry their
/// address, so each connection keeps the ones its `UtxosChanged` subscription names.
public struct UtxoSetDiff: Sendable, Hashable {
    public var added: [KaspaUtxoEntry]
    public var removed: [KaspaUtxoEntry]

    public init(added: [KaspaUtxoEntry] = [], removed: [KaspaUtxoEntry] = []) {
        self.added = added
        self.removed = removed
    }

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }

    /// The undo of this diff.
    public var reversed: UtxoSetDiff { UtxoSetDiff(added: removed, removed: added) }

    /// This diff followed by `later`, netted: an outpoint added here and removed there (or
    /// removed here and added back there) is in neither list.
    public func followed(by later: UtxoSetDiff) -> UtxoSetDiff {
        let laterRemoved = Set(later.removed.map(\.outpoint))
        let laterAdded = Set(later.added.map(\.outpoint))
        let cancelledAdds = Set(added.map(\.outpoint)).intersection(laterRemoved)
        let cancelledRemoves = Set(removed.map(\.outpoint)).intersection(laterAdded)
        return UtxoSetDiff(
            added: added.filter { !cancelledAdds.contains($0.outpoint) }
                + later.added.filter { !cancelledRemoves.contains($0.outpoint) },
            removed: removed.filter { !cancelledRemoves.contains($0.outpoint) }
                + later.removed.filter { !cancelledAdds.contains($0.outpoint) })
    }

    /// The `UtxosChanged` body for a subscriber of the addresses whose scripts are `scripts`, or
    /// nil when nothing it watches changed (a node sends no empty notification). Matching by
    /// script, as the UTXO index does, so an address's network prefix does not matter.
    public func notification(for scripts: Set<KaspaScriptPublicKey>) -> RPCUtxosChanged? {
        let added = self.added.filter { scripts.contains($0.scriptPublicKey) }
        let removed = self.removed.filter { scripts.contains($0.scriptPublicKey) }
        guard !added.isEmpty || !removed.isEmpty else { return nil }
        return RPCUtxosChanged(
            added: added.map(RPCUtxosByAddressesEntry.init), removed: removed.map(RPCUtxosByAddressesEntry.init))
    }
}
