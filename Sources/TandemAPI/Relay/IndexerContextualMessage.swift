/// A row of `GET /kasia/contextual-messages/by-sender` (kasia-protocol §10).
public struct IndexerContextualMessage: Codable, Sendable, Equatable {
    public var txID: String
    public var sender: String
    /// The query's `alias` parameter echoed: hex of the alias's UTF-8 bytes.
    public var alias: String
    public var blockTime: UInt64
    public var acceptingBlock: String?
    public var acceptingDAAScore: UInt64?
    /// Hex of the body text after `ciph_msg:1:comm:<alias>:` (so hex of base64 text today).
    public var messagePayload: String

    /// The root that carried the payload, `"kchat"` or `"ciph_msg"` (kasia-protocol §16): a
    /// Tandem server's own member; nil from a kasia-indexer, which does not say.
    public var root: String?

    public init(
        txID: String, sender: String, alias: String, blockTime: UInt64, acceptingBlock: String? = nil,
        acceptingDAAScore: UInt64? = nil, messagePayload: String
    ) {
        self.txID = txID
        self.sender = sender
        self.alias = alias
        self.blockTime = blockTime
        self.acceptingBlock = acceptingBlock
        self.acceptingDAAScore = acceptingDAAScore
        self.messagePayload = messagePayload
    }

    private enum CodingKeys: String, CodingKey {
        case txID = "tx_id"
        case sender, alias
        case blockTime = "block_time"
        case acceptingBlock = "accepting_block"
        case acceptingDAAScore = "accepting_daa_score"
        case messagePayload = "message_payload"
        case root
    }
}
