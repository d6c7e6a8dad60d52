public import KaspaRPC

/// The nodes of a profile and the rules for using them.
public struct KaspaNodeConfiguration: Sendable, Equatable {
    public var endpoints: [NodeEndpoint]
    public var network: KaspaNetworkID
    /// A wallet needs the UTXO index (UTXO calls and UtxosChanged).
    public var requiresUTXOIndex: Bool
    /// Everything but a status report needs a synced node.
    public var requiresSynced: Bool
    public var callTimeout: Duration
    /// The time the largest chain page (`getVirtualChainFromBlockV2`) gets: up to 2,480 merged
    /// blocks with their transactions, tens of MiB in a busy hour (kaspa-node.md §11), read at
    /// ~1 MiB/s. A page known to span fewer blocks gets its share
    /// (``pageTimeout(spanning:)``).
    public var pageTimeout: Duration
    public var pingInterval: Duration
    public var backoff: NodeBackoff
    /// The most notifications a connection, and events the client, keep for a reader that is
    /// behind (issue 50 item 2); older ones are dropped and a ``KaspaNodeEvent/resync`` read.
    public var eventCapacity: Int
    /// The longest one chain walk runs (``ChainWalk``): a catch-up that needs longer stops with
    /// a line saying so, keeps what it read, and the next one goes on from there.
    public var walkDeadline: Duration

    public init(
        endpoints: [NodeEndpoint], network: KaspaNetworkID, requiresUTXOIndex: Bool = true, requiresSynced: Bool = true,
        callTimeout: Duration = .seconds(10), pageTimeout: Duration = .seconds(120),
        pingInterval: Duration = .seconds(5),
        backoff: NodeBackoff = NodeBackoff(), eventCapacity: Int = 64, walkDeadline: Duration = .seconds(600)
    ) {
        self.endpoints = endpoints
        self.network = network
        self.requiresUTXOIndex = requiresUTXOIndex
        self.requiresSynced = requiresSynced
        self.callTimeout = callTimeout
        self.pageTimeout = max(pageTimeout, callTimeout)
        self.pingInterval = pingInterval
        self.backoff = backoff
        self.eventCapacity = eventCapacity
        self.walkDeadline = walkDeadline
    }

    /// The most merged blocks one chain page spans on a real node (kaspa-node.md §11).
    public static let largestPageBlocks: UInt64 = 2_480

    /// The time a chain page gets when it spans at most `blocks` DAA steps (from the walk's
    /// position to the sink): the call time, plus the page time's share for that many blocks of
    /// the largest page; the whole ``pageTimeout`` when the span is not known.
    public func pageTimeout(spanning blocks: UInt64?) -> Duration {
        guard let blocks else { return pageTimeout }
        let share = Double(min(blocks, Self.largestPageBlocks)) / Double(Self.largestPageBlocks)
        return callTimeout + (pageTimeout - callTimeout) * share
    }

    /// Why a node with `info` cannot serve, or nil when it can.
    public func check(_ info: RPCServerInfo) -> NodeCheckFailure? {
        if info.networkId != network { return .wrongNetwork(expected: network, found: info.networkId) }
        if requiresSynced, !info.isSynced { return .notSynced }
        if requiresUTXOIndex, !info.hasUtxoIndex { return .noUTXOIndex }
        return nil
    }
}
