/// `GET /kasia/metrics`: kasia-indexer's counters (kasia-protocol §10), the fields of its
/// `IndexerMetricsSnapshot` in the order it writes them. The relay has no blocks, so the block
/// fields are zero; KaChat only uses this route as a ping.
public struct IndexerMetrics: Codable, Sendable, Equatable {
    public var handshakesBySender: UInt64
    public var handshakesByReceiver: UInt64
    public var paymentsBySender: UInt64
    public var paymentsByReceiver: UInt64
    public var contextualMessages: UInt64
    public var blocksProcessed: UInt64
    /// Hex of a 32-byte block hash.
    public var latestBlock: String
    /// Hex of a 32-byte block hash.
    public var latestAcceptingBlock: String
    public var unknownSenderEntries: UInt64
    public var resolvedSenders: UInt64
    public var prunedBlocks: UInt64

    /// The all-zero block hash the relay reports.
    public static let zeroBlock = String(repeating: "0", count: 64)

    public init(handshakes: UInt64, payments: UInt64, contextualMessages: UInt64) {
        handshakesBySender = handshakes
        handshakesByReceiver = handshakes
        paymentsBySender = payments
        paymentsByReceiver = payments
        self.contextualMessages = contextualMessages
        blocksProcessed = 0
        latestBlock = Self.zeroBlock
        latestAcceptingBlock = Self.zeroBlock
        unknownSenderEntries = 0
        resolvedSenders = 0
        prunedBlocks = 0
    }

    private enum CodingKeys: String, CodingKey {
        case handshakesBySender = "handshakes_by_sender"
        case handshakesByReceiver = "handshakes_by_receiver"
        case paymentsBySender = "payments_by_sender"
        case paymentsByReceiver = "payments_by_receiver"
        case contextualMessages = "contextual_messages"
        case blocksProcessed = "blocks_processed"
        case latestBlock = "latest_block"
        case latestAcceptingBlock = "latest_accepting_block"
        case unknownSenderEntries = "unknown_sender_entries"
        case resolvedSenders = "resolved_senders"
        case prunedBlocks = "pruned_blocks"
    }
}
