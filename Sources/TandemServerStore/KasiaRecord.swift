public import TandemBasics

/// A stored Kasia transaction: its draft, the time kasia-indexer serves (`block_time`), its
/// acceptance on chain when known, and the commit-order position streams resume from.
///
/// A relayed row's block time is the position the store gave it (issue 11); a row from the
/// chain (issue 25) carries the including block's time, which is neither unique nor in commit
/// order, so streams and the fan-out follow ``position`` instead (ARCHITECTURE.md "Cursors that
/// never skip a row").
public struct KasiaRecord: Sendable, Equatable {
    public var draft: KasiaRecordDraft
    /// What the indexer routes serve and page by: the relay's commit time for a row only
    /// relayed, the including block's `blockTime` for a row accepted on chain.
    public var blockTime: UnixMillis
    /// Unique and strictly increasing in commit order across every writer of the database;
    /// a row gets a new one whenever its acceptance changes. The stream's `id:`.
    public var position: Int64
    /// The chain block that accepted the transaction; nil while it is only relayed.
    public var acceptance: KasiaAcceptance?

    public init(draft: KasiaRecordDraft, blockTime: UnixMillis, position: Int64, acceptance: KasiaAcceptance? = nil) {
        self.draft = draft
        self.blockTime = blockTime
        self.position = position
        self.acceptance = acceptance
    }

    /// A row only relayed: its block time is its position.
    public init(draft: KasiaRecordDraft, relayedAt position: Int64) {
        self.init(draft: draft, blockTime: UnixMillis(position), position: position)
    }
}

/// The chain block that accepted a transaction: kasia-indexer's `accepting_block` and
/// `accepting_daa_score` (kaspa-node.md §5).
public struct KasiaAcceptance: Sendable, Hashable {
    /// 64 lowercase hex characters.
    public var block: String
    public var daaScore: UInt64

    public init(block: String, daaScore: UInt64) {
        self.block = block
        self.daaScore = daaScore
    }
}
