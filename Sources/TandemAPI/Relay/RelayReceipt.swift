/// `POST /kasia/transactions`' answer: the stored row's id and block time, and — when the
/// server bridges signed Kaspa transactions to a node (issue 25 item 5) — the node's verdict.
public struct RelayReceipt: Codable, Sendable, Equatable {
    public var txID: String
    /// Milliseconds, assigned by the server in commit order (unique, strictly increasing).
    public var blockTime: UInt64
    /// What the server's Kaspa node made of the transaction; nil when the server has no node
    /// or the submission was not a Kaspa transaction.
    public var kaspa: RelayNodeVerdict?

    public init(txID: String, blockTime: UInt64, kaspa: RelayNodeVerdict? = nil) {
        self.txID = txID
        self.blockTime = blockTime
        self.kaspa = kaspa
    }

    private enum CodingKeys: String, CodingKey {
        case txID = "tx_id"
        case blockTime = "block_time"
        case kaspa
    }
}

/// `{"accepted": true, "node": URL}` or `{"accepted": false, "reason": TEXT}`: the node's
/// answer to a bridged submission, its refusal text verbatim (kaspa-node.md §6).
public struct RelayNodeVerdict: Codable, Sendable, Equatable {
    public var accepted: Bool
    public var node: String?
    public var reason: String?

    public init(accepted: Bool, node: String? = nil, reason: String? = nil) {
        self.accepted = accepted
        self.node = node
        self.reason = reason
    }
}
