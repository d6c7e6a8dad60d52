public import KaspaNode

/// How far a ``Messenger/sync(progress:)`` or ``Messenger/restore(progress:)`` has read (issue 51
/// item 9), for a person watching a long one: chain blocks walked over Kaspa, indexer routes read,
/// and the Kasia rows found on the way.
public struct ReadProgress: Sendable, Equatable {
    /// Chain blocks the walk has read (Kaspa only).
    public var blocksWalked = 0
    /// How many blocks (by DAA score) lie between the last block walked and the node's sink when
    /// the walk began; nil before the first block, or when the node did not say.
    public var blocksToGo: UInt64?
    /// Indexer routes read to their end (the relay's, or a Kaspa profile's indexer).
    public var routesRead = 0
    /// Kasia rows found, ours and our contacts' (what a route or a walk returned).
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
