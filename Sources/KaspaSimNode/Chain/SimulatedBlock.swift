public import KaspaRPC
public import KaspaTransaction
public import TandemBasics

/// One block of the simulated chain: one per DAA step, and the block that includes a
/// transaction is also the chain block that accepts it (kaspa-node.md §10).
public struct SimulatedBlock: Sendable, Hashable {
    public let hash: [UInt8]
    /// The block below it; nil for genesis.
    public let parentHash: [UInt8]?
    public let daaScore: UInt64
    public let time: UnixMillis
    /// The accepted transactions in acceptance order (mempool arrival order).
    public let transactions: [AcceptedTransaction]
    /// The block's net UTXO change, kept to undo it in a reorg.
    public let diff: UtxoSetDiff

    /// A transaction as the block holds it: its id and what a chain walk shows of it
    /// (kaspa-node.md §5).
    public struct AcceptedTransaction: Sendable, Hashable {
        public let id: [UInt8]
        public let transaction: RPCTransaction
        /// A faucet mint (``SimulatedChain/fund(_:amount:coinbase:time:)``): dropped, not
        /// returned to the mempool, when a reorg removes its block.
        public let isFunding: Bool
        /// The transaction hash (signatures included).
        public let hash: [UInt8]
        public let computeMass: UInt64
        public let storageMass: UInt64
        /// The UTXO entries its inputs spent, in input order, as the UTXO set held them when the
        /// block accepted it (so an output of an earlier transaction in the same block carries
        /// this block's DAA score): the sender of a chain walk's input.
        public let spent: [KaspaUtxoEntry]
    }
}
