import TandemBasics

/// A request the chain cannot carry out.
public enum SimulatedChainError: Error, Hashable, Sendable, CustomStringConvertible {
    case zeroAmount
    case reorgTooDeep(depth: Int, blocks: Int)
    /// A chain walk's start is neither a chain block nor one a reorg removed.
    case unknownStartHash([UInt8])
    /// A chain walk at level Low or above whose page holds an output (or a spent entry) with a
    /// non-standard script: a real node cannot convert its address (kaspa-node.md §11).
    case nonStandardScriptInPage(block: [UInt8])

    public var description: String {
        switch self {
        case .zeroAmount: "a funding amount must be at least 1 sompi"
        case .reorgTooDeep(let depth, let blocks):
            "a reorg removes 1 to \(blocks) blocks (genesis stays), not \(depth)"
        case .unknownStartHash(let hash):
            "start hash \(Hex.encode(hash)) is neither a chain block nor a block a reorg removed"
        case .nonStandardScriptInPage(let block):
            "block \(Hex.encode(block)) accepted a transaction with a non-standard script: no address to show"
        }
    }
}
