public import KaspaNode

/// How far a ``Messenger/sync(progress:)`` or ``Messenger/restore(progress:)`` has read (issue 51
/// item 9), for a person watching a long one: chain blocks walked over Kaspa, indexer routes read,
/// and the Kasia rows found on the way.
public struct ReadProgress: Sendable, Equatable {
    /// Chain blocks the walk has read (Kaspa only).
    public var blocksWalked = 0
    /// How far the walk has come from where it began to the node's sink when it began, 0…1 by
    /// DAA score; nil before the first block, or when the node did not say.
    public var fractionWalked: Double?
    /// Indexer routes read to their end (the relay's, or a Kaspa profile's indexer).
    public var routesRead = 0
    /// Kasia rows read: what the indexer routes returned, and every Kasia transaction the chain
    /// walk met, other people's too (the messenger keeps only its own and its contacts').
    public var rowsFound = 0
    /// Whether the read is over: the last report of a sync, with the totals.
    public var finished = false

    public init() {}
}

/// Called with each step of a long read; from the messenger's executor, so it must be quick.
public typealias ReadProgressHandler = @Sendable (ReadProgress) -> Void

/// How a chain transport's catch-up ended: why it stopped before the end, if it did (issue 50
/// item 3), and how much it read.
public struct ChainCatchUp: Sendable, Equatable {
    public var stop: ChainWalk.Stop?
    public var read: ReadProgress

    public init(stop: ChainWalk.Stop?, read: ReadProgress) {
        self.stop = stop
        self.read = read
    }
}
