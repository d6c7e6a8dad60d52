/// What the virtual chain did since a start block (kaspa-node.md §5), as blocks: a pure value a
/// test reads without frames, which ``SimulatedChain/virtualChain(_:limit:)`` renders at a level.
public struct VirtualChainWalk: Sendable, Hashable {
    /// Blocks between the start (included) and the chain that reorgs removed, highest first:
    /// the order a client undoes them in. Empty when the start is a chain block.
    public var removed: [SimulatedBlock]
    /// Chain blocks above the start (or above the fork point, after a reorg), ascending.
    public var added: [SimulatedBlock]

    public init(removed: [SimulatedBlock], added: [SimulatedBlock]) {
        self.removed = removed
        self.added = added
    }
}
