public import KaspaCrypto
public import KaspaRPC
public import KaspaTransaction
public import TandemBasics

/// The one chain every port of a simulated node serves (kaspa-node.md §10: several "nodes" on
/// one chain, for failover). It owns a ``SimulatedChain``, stamps blocks with its clock, and
/// hands each change to every connection listening (``updates()``), which turns it into
/// `UtxosChanged` and `VirtualDaaScoreChanged` notifications.
///
/// Blocks come on demand (``mine(blocks:)``; tests order events this way, never by sleeping) or
/// from a ``BlockProducer`` on a timer.
public actor SimulatedKaspaNode {
    public private(set) var chain: SimulatedChain
    private let clock: any WallClock
    private var listeners: [UInt64: AsyncStream<ChainUpdate>.Continuation] = [:]
    private var nextListener: UInt64 = 1
    private var switchesByPort: [Int: NodeSwitches] = [:]
    /// The traffic `POST /sim/traffic` sends, shared by every port.
    public nonisolated let traffic = SimulatedTrafficSource()

    public init(chain: SimulatedChain = SimulatedChain(), clock: any WallClock = SystemClock()) {
        self.chain = chain
        self.clock = clock
    }

    public var network: KaspaNetworkID { chain.network }
    public var virtualDaaScore: UInt64 { chain.virtualDaaScore }

    /// Mints `amount` sompi to `address` in a block of its own; answers the funding
    /// transaction's id. Listeners see the new UTXO at once.
    @discardableResult
    public func fund(
        _ address: KaspaAddress, amount: UInt64, coinbase: Bool = false
    ) throws(SimulatedChainError) -> [UInt8] {
        let (id, update) = try chain.fund(address, amount: amount, coinbase: coinbase, time: clock.now)
        publish(update)
        return id
    }

    /// Mints `amount` sompi to `script` in a block of its own, a non-standard script included
    /// (``SimulatedChain/fund(script:amount:coinbase:time:)``).
    public func fund(script: KaspaScriptPublicKey, amount: UInt64) throws(SimulatedChainError) -> [UInt8] {
        let (id, update) = try chain.fund(script: script, amount: amount, time: clock.now)
        publish(update)
        return id
    }

    /// Makes `blocks` blocks, the first accepting the whole mempool; answers the new virtual DAA
    /// score. Each block is one update (one `VirtualDaaScoreChanged` per block).
    @discardableResult
    public func mine(blocks: Int = 1) -> UInt64 {
        for _ in 0..<max(blocks, 0) { publish(chain.mineBlock(time: clock.now)) }
        return chain.virtualDaaScore
    }

    /// Removes the last `depth` blocks (``SimulatedChain/reorg(depth:)``); answers the new virtual
    /// DAA score. Listeners get the net undo as one `UtxosChanged`.
    @discardableResult
    public func reorg(depth: Int) throws(SimulatedChainError) -> UInt64 {
        publish(try chain.reorg(depth: depth))
        return chain.virtualDaaScore
    }

    /// A node's RPC submit: the id, or the §6 refusal.
    public func submit(_ transaction: RPCTransaction) throws(SubmitRejection) -> [UInt8] {
        try chain.submit(transaction)
    }

    /// While `full`, every submission is refused with the mempool-full text.
    public func setMempoolFull(_ full: Bool) { chain.isMempoolFull = full }

    /// A look at the chain (a copy; the chain is a value).
    public func read<T: Sendable>(_ body: @Sendable (SimulatedChain) -> T) -> T { body(chain) }

    // MARK: Listeners

    /// A stream of every change from now on, and the id that ``removeListener(_:)`` takes.
    public func updates() -> (id: UInt64, stream: AsyncStream<ChainUpdate>) {
        let (stream, continuation) = AsyncStream.makeStream(of: ChainUpdate.self)
        let id = nextListener
        nextListener += 1
        listeners[id] = continuation
        return (id, stream)
    }

    public func removeListener(_ id: UInt64) {
        listeners.removeValue(forKey: id)?.finish()
    }

    private func publish(_ update: ChainUpdate) {
        for continuation in listeners.values { continuation.yield(update) }
    }

    // MARK: Servers

    /// Records which switches serve `port`, so the control API on any port can reach them.
    public func register(port: Int, switches: NodeSwitches) { switchesByPort[port] = switches }

    public func unregister(port: Int) { switchesByPort[port] = nil }

    /// The switches of the server on `port`.
    public func switches(port: Int) -> NodeSwitches? { switchesByPort[port] }

    /// The ports being served, ascending.
    public var ports: [Int] { switchesByPort.keys.sorted() }
}
