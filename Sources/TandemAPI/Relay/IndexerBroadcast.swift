/// A `broadcast` event of `GET /kasia/stream`: a `ciph_msg:1:bcast:<channel>:` payload.
/// kasia-indexer has no route for broadcasts, so this shape is the relay's own, in the style of
/// the indexer rows.
public struct IndexerBroadcast: Codable, Sendable, Equatable {
    public var txID: String
    public var sender: String
    /// Hex of the channel name's bytes.
    public var channel: String
    public var blockTime: UInt64
    /// Hex of the plaintext body after `<channel>:`.
    public var message: String

    /// The root that carried the payload, `"kchat"` or `"ciph_msg"` (kasia-protocol §16): a
    /// Tandem server's own member; nil from a kasia-indexer, which does not say.
    public var root: String?

    public init(txID: String, sender: String, channel: String, blockTime: UInt64, message: String) {
        self.txID = txID
        self.sender = sender
        self.channel = channel
        self.blockTime = blockTime
        self.message = message
    }

    private enum CodingKeys: String, CodingKey {
        case txID = "tx_id"
        case sender, channel
        case blockTime = "block_time"
        case message
        case root
    }
}
