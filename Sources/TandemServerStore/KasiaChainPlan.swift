import TandemBasics

/// What applying one ``KasiaChainPage`` writes, decided once for both backends (issue 43 item 7):
/// each backend reads the facts the plan needs (the stored rows the removed blocks accepted, and
/// the stored acceptance of the page's transactions), builds the plan, and executes its steps in
/// its own statements. The rules — which rows a reorg deletes or returns to unaccepted, which
/// page rows are new, moved or unchanged, and the order positions are handed out in — live here
/// only, so the two backends cannot drift apart.
struct KasiaChainPlan: Sendable, Equatable {
    /// A stored row that a removed chain block accepted.
    struct RemovedRow: Sendable, Equatable {
        var txID: String
        var block: String
        /// Its position (`seq`): the order it is un-accepted in within its block.
        var position: Int64
        /// When it was relayed; nil for a row only the chain walk stored.
        var relayedTime: Int64?
    }

    /// A relayed row whose accepting block was removed: back to unaccepted, at its relay time.
    struct Unaccept: Sendable, Equatable {
        var txID: String
        var blockTime: Int64
        var position: Int64
    }

    /// A page row to insert (new) or to overwrite (stored with another acceptance).
    struct Write: Sendable, Equatable {
        var row: KasiaChainRow
        var position: Int64
        var isNew: Bool
    }

    /// Rows only removed blocks accepted, never relayed: deleted.
    private(set) var deletions: [String] = []
    private(set) var unaccepts: [Unaccept] = []
    private(set) var writes: [Write] = []
    private(set) var applied = KasiaChainApplied()
    /// The newest position after the plan (the relay's clock row moves to it).
    let lastPosition: Int64?

    /// The plan for `page`. `removedRows` are the stored rows whose accepting block is one of
    /// `page.removedBlocks`; `stored` maps each of the page's transaction ids that is stored to
    /// its accepting block (nil: stored, unaccepted). Positions continue from `positions` at `now`.
    ///
    /// - Un-accepting goes block by block in the page's order (highest first, as the node names
    ///   them) and by position within a block; a row the page accepts again is moved, not removed.
    /// - A transaction the page names twice (two added blocks claim it: a node's mistake) is
    ///   written once, with the later block's acceptance.
    /// - A row the same block accepts again (a page read twice) changes nothing.
    init(
        page: KasiaChainPage, removedRows: [RemovedRow], stored: [String: String?], positions start: KasiaPositions,
        now: UnixMillis
    ) {
        var positions = start
        var seenRemoved = Set<String>()
        let reaccepted = Set(page.rows.map(\.draft.txID))
        let blockOrder = Dictionary(page.removedBlocks.enumerated().map { ($0.element, $0.offset) }) { first, _ in first
        }
        let removed = removedRows.filter { blockOrder[$0.block] != nil }.sorted {
            (blockOrder[$0.block] ?? 0, $0.position) < (blockOrder[$1.block] ?? 0, $1.position)
        }
        for row in removed where !reaccepted.contains(row.txID) && seenRemoved.insert(row.txID).inserted {
            if let relayed = row.relayedTime {
                unaccepts.append(Unaccept(txID: row.txID, blockTime: relayed, position: positions.take(at: now)))
                applied.unaccepted += 1
            } else {
                deletions.append(row.txID)
                applied.removed += 1
            }
        }
        var lastIndex: [String: Int] = [:]
        for (index, row) in page.rows.enumerated() { lastIndex[row.draft.txID] = index }
        for (index, row) in page.rows.enumerated() where lastIndex[row.draft.txID] == index {
            let isNew: Bool
            switch stored[row.draft.txID] {
            case .none: isNew = true
            case .some(let block) where block == row.acceptance.block: continue
            case .some: isNew = false
            }
            writes.append(Write(row: row, position: positions.take(at: now), isNew: isNew))
            if isNew { applied.inserted += 1 } else { applied.moved += 1 }
        }
        lastPosition = positions.last
    }
}
