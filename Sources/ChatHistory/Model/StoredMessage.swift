public import ChatTimeline
public import Foundation

/// One message row as stored (kasia-protocol.md §8–9): stable UUID identity, optional network
/// identity, ordering key fields, status and the body bytes, which may be undecryptable.
public struct StoredMessage: Hashable, Sendable {
    /// Assigned once, when the message is first seen, and never regenerated.
    public var id: MessageID
    public var conversation: ConversationID
    /// Unique when known; `nil` while the message is pending.
    public var txID: TxID?
    /// Block time in milliseconds (local send time while pending).
    public var blockTime: UInt64
    /// Timestamp in milliseconds.
    public var timestamp: Int64
    public var status: DeliveryStatus
    public var direction: MessageDirection
    public var kind: MessageKind
    /// Encrypted-at-rest or plaintext body; the store never interprets it.
    public var body: Data?
    /// A payment's amount in sompi: the value on chain that reached the payee (issue 43 item 3).
    public var amountSompi: UInt64?
    /// The root of the payload that carried the row, `kchat` or `ciph_msg` (kasia-protocol §16),
    /// where known.
    public var root: String?
    /// The emoji reactions on this message, one per reactor, oldest first (KaChat's `reaction`
    /// envelopes, issue 43 item 4). Read from the store's reactions; saving a row leaves them.
    public var reactions: [String]

    public init(
        id: MessageID, conversation: ConversationID, txID: TxID?, blockTime: UInt64, timestamp: Int64,
        status: DeliveryStatus, direction: MessageDirection, kind: MessageKind, body: Data?,
        amountSompi: UInt64? = nil, root: String? = nil, reactions: [String] = []
    ) {
        self.id = id
        self.conversation = conversation
        self.txID = txID
        self.blockTime = blockTime
        self.timestamp = timestamp
        self.status = status
        self.direction = direction
        self.kind = kind
        self.body = body
        self.amountSompi = amountSompi
        self.root = root
        self.reactions = reactions
    }

    /// The ordering key, identical to the SQL `ORDER BY blockTime, timestamp, id`.
    public var key: MessageKey { MessageKey(blockTime: blockTime, timestamp: timestamp, id: id) }
}
