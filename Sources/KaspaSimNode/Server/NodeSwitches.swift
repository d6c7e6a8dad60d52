public import KaspaCrypto
public import KaspaRPC
public import NIOCore

/// What one port of the simulated node does wrong on purpose (kaspa-node.md §10: "drop
/// connections on demand", failover between "nodes"). Each ``SimulatedNodeServer`` has its own.
public actor NodeSwitches {
    /// The switch positions a request reads.
    public struct State: Sendable, Hashable {
        /// Submits still to refuse, and the whole text they are refused with.
        public var rejections: (count: Int, message: String)? {
            get { rejectionCount > 0 ? (rejectionCount, rejectionMessage) : nil }
            set {
                rejectionCount = newValue?.count ?? 0
                rejectionMessage = newValue?.message ?? ""
            }
        }
        var rejectionCount = 0
        var rejectionMessage = ""
        /// Chain walks (`getVirtualChainFromBlockV2`) still to refuse, the text, and the lowest
        /// verbosity refused.
        var chainRefusalCount = 0
        var chainRefusalMessage = ""
        var chainRefusalLevel = RPCDataVerbosityLevel.none
        /// Requests are read and never answered; no notifications are sent.
        public var isStalled = false
        /// The network `getServerInfo` and `getBlockDagInfo` report instead of the chain's.
        public var reportedNetwork: KaspaNetworkID?
        /// `isSynced` in `getServerInfo`; unsynced nodes refuse submits as IBD does.
        public var isSynced = true
        /// `hasUtxoIndex`; without it UTXO calls fail and no `UtxosChanged` is sent.
        public var hasUtxoIndex = true
        /// WebSocket upgrades are refused (an HTTP 503 answers them).
        public var refusesConnections = false
        /// The most added blocks one chain page holds, instead of
        /// ``SimulatedChain/virtualChainPageSize`` (a real node's bound is far larger): a test walks
        /// many pages over a short chain.
        public var chainPageLimit: Int?

        public init() {}
    }

    public private(set) var state = State()
    private var channels: [ObjectIdentifier: any Channel] = [:]
    /// The start hash of every chain walk this port was asked for, in order (a test reads where a
    /// walker started again from).
    public private(set) var chainWalkStarts: [[UInt8]] = []

    /// The addresses of every `UtxosChanged` subscribe this port accepted, in order, from any
    /// connection: a test learns from it which addresses a client watches now, without waiting
    /// on time. One consumer.
    public nonisolated let utxoSubscriptions: AsyncStream<[KaspaAddress]>
    private nonisolated let subscriptionSink: AsyncStream<[KaspaAddress]>.Continuation

    public init() {
        (utxoSubscriptions, subscriptionSink) = AsyncStream.makeStream(of: [KaspaAddress].self)
    }

    nonisolated func recordSubscription(_ addresses: [KaspaAddress]) { subscriptionSink.yield(addresses) }

    /// Refuses the next `count` submits with `message`, given whole (no prefix is added).
    public func rejectNextSubmits(_ count: Int, message: String) { state.rejections = (max(count, 0), message) }

    public func setStalled(_ stalled: Bool) { state.isStalled = stalled }
    public func setReportedNetwork(_ network: KaspaNetworkID?) { state.reportedNetwork = network }
    public func setSynced(_ synced: Bool) { state.isSynced = synced }
    public func setUtxoIndex(_ present: Bool) { state.hasUtxoIndex = present }
    public func setRefusingConnections(_ refusing: Bool) { state.refusesConnections = refusing }
    public func setChainPageLimit(_ limit: Int?) { state.chainPageLimit = limit.map { max($0, 1) } }

    /// Closes every open WebSocket connection of this port at the TCP level, without a close
    /// frame: what a client sees when a node dies.
    public func dropConnections() {
        for channel in channels.values { channel.close(promise: nil) }
        channels = [:]
    }

    /// Refuses the next `count` chain walks at `level` or above with `message`, given whole
    /// (`cannot find header …`, or the conversion failure a non-standard output causes on a real
    /// node at Low and above, kaspa-node.md §11).
    public func refuseNextChainWalks(
        _ count: Int, message: String, atOrAbove level: RPCDataVerbosityLevel = .none
    ) {
        state.chainRefusalCount = max(count, 0)
        state.chainRefusalMessage = message
        state.chainRefusalLevel = level
    }

    /// Records a chain walk's start; the forced refusal for it, if one is pending (and counts it).
    /// No level asked means Full (kaspa-node.md §5).
    func takeChainWalkRefusal(startingAt start: [UInt8], level: RPCDataVerbosityLevel?) -> String? {
        chainWalkStarts.append(start)
        guard state.chainRefusalCount > 0, level ?? .full >= state.chainRefusalLevel else { return nil }
        state.chainRefusalCount -= 1
        return state.chainRefusalMessage
    }

    /// The forced refusal for this submit, if one is pending (and counts it).
    func takeRejection() -> String? {
        guard state.rejectionCount > 0 else { return nil }
        state.rejectionCount -= 1
        return state.rejectionMessage
    }

    func register(_ channel: any Channel) { channels[ObjectIdentifier(channel)] = channel }
    func unregister(_ channel: any Channel) { channels[ObjectIdentifier(channel)] = nil }
}
