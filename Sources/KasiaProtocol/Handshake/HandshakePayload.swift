/// The decrypted body of a handshake (kasia-protocol §5.1, seed 000 §3.3).
///
/// Handshakes are contact-sharing signals. Their alias fields are compatibility hints for old
/// clients and never the source of truth for deterministic routing (seed §4.4).
public struct HandshakePayload: Sendable, Equatable {
    /// `timestamp` is milliseconds in every client but the pre-v1 indexer notes, which used a
    /// date string; both are kept as written.
    public enum Timestamp: Sendable, Equatable {
        case milliseconds(Int64)
        case text(String)
    }

    /// Whether the plaintext was bare JSON or still carried the legacy envelope prefix.
    public enum Form: String, Sendable, Equatable {
        case json
        case prefixedJSON = "prefixed-json"
    }

    /// The sender's alias for its outgoing messages (legacy), when present.
    public var alias: Alias?
    /// In old web responses: the initiator's alias.
    public var theirAlias: Alias?
    public var timestamp: Timestamp?
    /// Protocol version; absent in some old payloads, read as 1. Never above 1.
    public var version: Int
    public var conversationID: String?
    public var recipientAddress: String?
    public var sendToRecipient: Bool?
    public var isResponse: Bool
    /// An explicit capability hint (seed §4.3 item 3): the sender routes by deterministic aliases.
    public var supportsDeterministicAliases: Bool?

    public init(
        alias: Alias? = nil, theirAlias: Alias? = nil, timestamp: Timestamp? = nil, version: Int = 1,
        conversationID: String? = nil, recipientAddress: String? = nil, sendToRecipient: Bool? = nil,
        isResponse: Bool = false, supportsDeterministicAliases: Bool? = nil
    ) {
        self.alias = alias
        self.theirAlias = theirAlias
        self.timestamp = timestamp
        self.version = version
        self.conversationID = conversationID
        self.recipientAddress = recipientAddress
        self.sendToRecipient = sendToRecipient
        self.isResponse = isResponse
        self.supportsDeterministicAliases = supportsDeterministicAliases
    }

    /// No alias fields at all: the deterministic form, which is capability evidence (seed §4.3 item 2).
    public var isAliasless: Bool { alias == nil && theirAlias == nil }
}
