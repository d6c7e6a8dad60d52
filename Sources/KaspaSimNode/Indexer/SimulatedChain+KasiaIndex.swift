public import KasiaIndex
import KasiaProtocol
import TandemBasics

extension SimulatedChain {
    /// ``kasiaIndex`` computed from the chain blocks (after a reorg).
    func kasiaIndexOfBlocks() -> [KasiaIndexRow] {
        var rows: [(row: KasiaIndexRow, order: Int)] = []
        for block in blocks {
            for row in kasiaRowsByBlock[block.hash] ?? kasiaRows(of: block) { rows.append((row, rows.count)) }
        }
        // Block times may go backwards (a clock set back); the order keeps chain order on ties.
        return rows.sorted { ($0.row.blockTime, $0.order) < ($1.row.blockTime, $1.order) }.map(\.row)
    }

    /// The rows of `block`'s accepted Kasia transactions, each shown as a chain walk at level High
    /// shows it and read by ``KasiaIndexRow``.
    func kasiaRows(of block: SimulatedBlock) -> [KasiaIndexRow] {
        let acceptance = KasiaIndexRow.Acceptance(block: Hex.encode(block.hash), daaScore: block.daaScore)
        return block.transactions.compactMap { accepted in
            // Only Kasia payloads are shown as the node would show them.
            guard let payload = accepted.transaction.payload, KasiaIndexedPayload(payload) != nil else { return nil }
            return KasiaIndexRow(
                transaction: accepted.rpcTransaction(level: .high, in: block, network: network.network),
                fallbackTime: UInt64(max(block.time.rawValue, 0)), acceptance: acceptance, network: network.network)
        }
    }

    /// One page of a route (kasia-protocol §10): the rows `selection` selects whose block time is
    /// at least `blockTime` (the inclusive cursor), ascending, each transaction id once, at most
    /// `limit` of them.
    public func kasiaIndex(_ selection: KasiaIndexSelection, from blockTime: UInt64, limit: Int) -> [KasiaIndexRow] {
        var page: [KasiaIndexRow] = []
        var seen = Set<String>()
        for row in kasiaIndex where page.count < limit {
            guard row.blockTime >= blockTime, selection.selects(row), seen.insert(row.txID).inserted else { continue }
            page.append(row)
        }
        return page
    }
}
