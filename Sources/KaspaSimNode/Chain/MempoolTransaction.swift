public import KaspaRPC
public import KaspaTransaction

/// A transaction waiting in the mempool with what the node computed on entry.
public struct MempoolTransaction: Sendable, Hashable {
    public let id: [UInt8]
    /// As submitted (no verbose data).
    public let transaction: RPCTransaction
    public let fee: UInt64
    public let mass: NodeMass
    public let storageMass: UInt64
    /// The transaction hash (signatures included).
    public let hash: [UInt8]
    /// The entries its inputs spend, in input order: the `sending` side of an address.
    public let spent: [KaspaUtxoEntry]
}
