/// A row of `GET /kasia/payments/by-sender|by-receiver` (kasia-protocol §10). Like the
/// indexer, by-sender answers carry the queried address as `sender`; an indexer may send null
/// where it has not resolved a sender.
public struct IndexerPayment: Codable, Sendable, Equatable {
    public var txID: String
    public var sender: String?
    public var receiver: String
    public var blockTime: UInt64
    /// Sompi of the first output.
    public var amount: UInt64
    /// Hex of the stored body (`pay:` → hex of the sealed bytes; web `payment:` → hex of its hex text).
    public var message: String
    public var acceptingBlock: String?
    public var acceptingDAAScore: UInt64?

    /// The root that carried the payload, `"kchat"` or `"ciph_msg"` (kasia-protocol §16): a
    /// Tandem server's own member; nil from a kasia-indexer, which does not say.
    public var root: String?

    /// Whether a block the chain accepted carries the transaction (issue 50 item 7): a Tandem
    /// server's own member, `false` for a row only relayed to it (its coin may not exist); nil
    /// from a kasia-indexer, whose `accepting_block` says the same.
    public var verified: Bool?

    /// Whether the payment happened: the server's `verified`, else an accepting block. A row
    /// that says neither was seen only off the chain and is never shown as paid.
    public var isVerified: Bool { verified ?? (acceptingBlock != nil) }

    public init(
        txID: String, sender: String?, receiver: String, blockTime: UInt64, amount: UInt64, message: String,
        acceptingBlock: String? = nil, acceptingDAAScore: UInt64? = nil
    ) {
        self.txID = txID
        self.sender = sender
        self.receiver = receiver
        self.blockTime = blockTime
        self.amount = amount
        self.message = message
        self.acceptingBlock = acceptingBlock
        self.acceptingDAAScore = acceptingDAAScore
    }

    private enum CodingKeys: String, CodingKey {
        case txID = "tx_id"
        case sender, receiver
        case blockTime = "block_time"
        case amount, message
        case acceptingBlock = "accepting_block"
        case acceptingDAAScore = "accepting_daa_score"
        case root, verified
    }
}
