/// A row of `GET /kasia/handshakes/by-sender|by-receiver`, as kasia-indexer sends it
/// (kasia-protocol §10): handshakes and legacy `ciph_msg:` bodies.
public struct IndexerHandshake: Codable, Sendable, Equatable {
    public var txID: String
    public var sender: String
    public var receiver: String
    public var blockTime: UInt64
    public var acceptingBlock: String?
    public var acceptingDAAScore: UInt64?
    /// Hex of the bytes after `ciph_msg:1:handshake:` (or after `ciph_msg:` for legacy).
    public var messagePayload: String

    /// The root that carried the payload, `"kchat"` or `"ciph_msg"` (kasia-protocol §16): a
    /// Tandem server's own member; nil from a kasia-indexer, which does not say.
    public var root: String?

    public init(
        txID: String, sender: String, receiver: String, blockTime: UInt64, acceptingBlock: String? = nil,
        acceptingDAAScore: UInt64? = nil, messagePayload: String
    ) {
        self.txID = txID
        self.sender = sender
        self.receiver = receiver
        self.blockTime = blockTime
        self.acceptingBlock = acceptingBlock
        self.acceptingDAAScore = acceptingDAAScore
        self.messagePayload = messagePayload
    }

    private enum CodingKeys: String, CodingKey {
        case txID = "tx_id"
        case sender, receiver
        case blockTime = "block_time"
        case acceptingBlock = "accepting_block"
        case acceptingDAAScore = "accepting_daa_score"
        case messagePayload = "message_payload"
        case root
    }
}
