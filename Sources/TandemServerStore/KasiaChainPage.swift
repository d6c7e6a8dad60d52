public import TandemBasics

/// Where the chain ingester stands: the last chain block whose accepted transactions are
/// stored, with its DAA score and time (for `/health`'s lag and the metrics).
public struct KasiaChainCursor: Sendable, Hashable {
    /// 64 lowercase hex characters.
    public var block: String
    public var daaScore: UInt64
    public var blockTime: UnixMillis
    /// The network the index follows (`mainnet`, `testnet-10`); "" for a cursor stored before
    /// the network was kept. A server started on another network refuses to go on from it.
    public var network: String

    public init(block: String, daaScore: UInt64, blockTime: UnixMillis, network: String = "") {
        self.block = block
        self.daaScore = daaScore
        self.blockTime = blockTime
        self.network = network
    }
}

/// One Kasia transaction a chain block accepted, as the indexer keeps it.
public struct KasiaChainRow: Sendable, Equatable {
    public var draft: KasiaRecordDraft
    /// The including block's time (`verboseData.blockTime`).
    public var blockTime: UnixMillis
    public var acceptance: KasiaAcceptance

    public init(draft: KasiaRecordDraft, blockTime: UnixMillis, acceptance: KasiaAcceptance) {
        self.draft = draft
        self.blockTime = blockTime
        self.acceptance = acceptance
    }
}

/// What one walk of the virtual chain changes, applied in one database transaction with the
/// cursor's move (issue 25 items 1–3).
public struct KasiaChainPage: Sendable, Equatable {
    /// The cursor the page was read from: the store refuses the page when its cursor is no
    /// longer this one (another ingester moved it), so two ingesters can never interleave.
    public var from: KasiaChainCursor?
    /// Chain blocks a reorg removed, highest first: what they accepted is un-accepted first.
    public var removedBlocks: [String]
    /// The accepted Kasia transactions of the added chain blocks, in chain order.
    public var rows: [KasiaChainRow]
    public var to: KasiaChainCursor

    public init(from: KasiaChainCursor?, removedBlocks: [String], rows: [KasiaChainRow], to: KasiaChainCursor) {
        self.from = from
        self.removedBlocks = removedBlocks
        self.rows = rows
        self.to = to
    }
}

/// What applying a page did.
public struct KasiaChainApplied: Sendable, Equatable {
    /// Rows stored for the first time.
    public var inserted: Int
    /// Rows already stored (relayed, or accepted elsewhere) whose acceptance changed.
    public var moved: Int
    /// Rows a reorg took out of the reads (accepted only by a removed block, never relayed).
    public var removed: Int
    /// Relayed rows a reorg returned to unaccepted.
    public var unaccepted: Int

    public init(inserted: Int = 0, moved: Int = 0, removed: Int = 0, unaccepted: Int = 0) {
        self.inserted = inserted
        self.moved = moved
        self.removed = removed
        self.unaccepted = unaccepted
    }

    /// Whether any row a stream could see changed.
    public var changedRows: Bool { inserted + moved + unaccepted > 0 }
}
