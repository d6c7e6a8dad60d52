/// A row of `GET /kasia/self-stash/by-owner` (kasia-protocol §10).
public struct IndexerSelfStash: Codable, Sendable, Equatable {
    public var txID: String
    public var owner: String
    /// Hex of the scope's bytes: the query's `scope` as given (empty for stashes without a
    /// scope), or on the live stream the stored lowercase hex. Null only from older relays.
    public var scope: String?
    public var blockTime: UInt64
    public var acceptingBlock: String?
    public var acceptingDAAScore: UInt64?
    /// Hex of the sealed bytes.
    public var stashedData: String

    /// The root that carried the payload, `"kchat"` or `"ciph_msg"` (kasia-protocol §16): a
    /// Tandem server's own member; nil from a kasia-indexer, which does not say.
    public var root: String?

    public init(
        txID: String, owner: String, scope: String?, blockTime: UInt64, acceptingBlock: String? = nil,
        acceptingDAAScore: UInt64? = nil, stashedData: String
    ) {
        self.txID = txID
        self.owner = owner
        self.scope = scope
        self.blockTime = blockTime
        self.acceptingBlock = acceptingBlock
        self.acceptingDAAScore = acceptingDAAScore
        self.stashedData = stashedData
    }

    /// K-Kluster's kasia-indexer sends `owner` as optional (kasia-protocol §10, `owner?`): an
    /// absent or null owner reads as "" here, and ``RelayClient``'s by-owner reads name it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        txID = try container.decode(String.self, forKey: .txID)
        owner = try container.decodeIfPresent(String.self, forKey: .owner) ?? ""
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        blockTime = try container.decode(UInt64.self, forKey: .blockTime)
        acceptingBlock = try container.decodeIfPresent(String.self, forKey: .acceptingBlock)
        acceptingDAAScore = try container.decodeIfPresent(UInt64.self, forKey: .acceptingDAAScore)
        stashedData = try container.decode(String.self, forKey: .stashedData)
        root = try container.decodeIfPresent(String.self, forKey: .root)
    }

    private enum CodingKeys: String, CodingKey {
        case txID = "tx_id"
        case owner, scope
        case blockTime = "block_time"
        case acceptingBlock = "accepting_block"
        case acceptingDAAScore = "accepting_daa_score"
        case stashedData = "stashed_data"
        case root
    }
}
