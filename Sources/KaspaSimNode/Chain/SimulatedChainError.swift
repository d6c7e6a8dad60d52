/// A request the chain cannot carry out.
public enum SimulatedChainError: Error, Hashable, Sendable, CustomStringConvertible {
    case zeroAmount
    case reorgTooDeep(depth: Int, blocks: Int)

    public var description: String {
        switch self {
        case .zeroAmount: "a funding amount must be at least 1 sompi"
        case .reorgTooDeep(let depth, let blocks):
            "a reorg removes 1 to \(blocks) blocks (genesis stays), not \(depth)"
        }
    }
}
