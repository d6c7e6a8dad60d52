extension SimulatedChain {
    /// What a kasia-indexer following this chain holds (kasia-protocol §4, §10): an entry for
    /// each Kasia transaction the chain blocks accepted, ascending by block time and in chain
    /// order within one time. Computed from the blocks on each call, so the blocks a reorg
    /// removed are gone and a transaction a later block accepts again appears with that block.
    public var kasiaIndex: [KasiaIndexEntry] {
        let entries = blocks.flatMap { block in
            block.transactions.compactMap { KasiaIndexEntry($0, in: block, network: network.network) }
        }
        // Block times may go backwards (a clock set back); the offset keeps chain order on ties.
        return entries.enumerated()
            .sorted { ($0.element.blockTime, $0.offset) < ($1.element.blockTime, $1.offset) }
            .map(\.element)
    }

    /// One page of a route (kasia-protocol §10): the entries `query` selects whose block time is
    /// at least `blockTime` (the inclusive cursor), ascending, each transaction id once, at most
    /// `limit` of them.
    public func kasiaIndex(_ query: KasiaIndexQuery, from blockTime: UInt64, limit: Int) -> [KasiaIndexEntry] {
        var page: [KasiaIndexEntry] = []
        var seen = Set<[UInt8]>()
        for entry in kasiaIndex where page.count < limit {
            guard entry.blockTime >= blockTime, query.selects(entry), seen.insert(entry.txID).inserted else { continue }
            page.append(entry)
        }
        return page
    }
}
