/// The answer to an accepted submission: `{"tx_id", "block_time"}`, the same for every
/// resubmission.
public struct RelayReceipt: Codable, Sendable, Equatable {
    public var txID: String
    /// Milliseconds, assigned by the server in commit order (unique, strictly increasing).
    public var blockTime: UInt64

    public init(txID: String, blockTime: UInt64) {
        self.txID = txID
        self.blockTime = blockTime
    }

    private enum CodingKeys: String, CodingKey {
        case txID = "tx_id"
        case blockTime = "block_time"
    }
}
