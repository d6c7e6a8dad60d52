public import TandemBasics

/// A stored relayed transaction: its draft plus the `block_time` the store assigned in commit
/// order (ARCHITECTURE.md "Cursors that never skip a row").
public struct KasiaRecord: Sendable, Equatable {
    public var draft: KasiaRecordDraft
    /// Unique and strictly increasing in commit order across every writer of the database.
    public var blockTime: UnixMillis

    public init(draft: KasiaRecordDraft, blockTime: UnixMillis) {
        self.draft = draft
        self.blockTime = blockTime
    }
}
