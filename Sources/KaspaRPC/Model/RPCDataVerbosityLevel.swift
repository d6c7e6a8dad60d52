/// How much of each block header and accepted transaction `getVirtualChainFromBlockV2` returns
/// (`RpcDataVerbosityLevel`, kaspa-node.md §5): the JSON strings `"None"`, `"Low"`, `"High"`,
/// `"Full"`. A request without a level (`null`) gets Full. Each level includes every lower one.
public enum RPCDataVerbosityLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Header hashes only; transactions with every member null (inputs and outputs `[]`).
    case none = "None"
    /// Adds the header's scores and time, each transaction's id, block and outputs, and each
    /// input's signature script and sender address.
    case low = "Low"
    /// Adds parents and merkle roots, payloads and masses, input outpoints and spent amounts: the
    /// smallest level a chat client or an indexer can read messages from.
    case high = "High"
    /// Everything: the header's UTXO commitment and pruning point, the transaction's version, lock
    /// time, subnetwork and gas, the spent UTXO's DAA score.
    case full = "Full"

    private var rank: Int {
        switch self {
        case .none: 0
        case .low: 1
        case .high: 2
        case .full: 3
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
