/// `GET /kasia/metrics`: kasia-indexer's counters (kasia-protocol §10), the fields of its
/// `IndexerMetricsSnapshot` in the order it writes them, with its names since August 2025 (the
/// receiver counts are `uniq_…`; the older names are read too). A relay without a chain index
/// reports all-zero blocks; KaChat only uses this route as a ping.
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
        case handshakesByReceiver = "uniq_handshakes_by_receiver"
        case paymentsBySender = "payments_by_sender"
        case paymentsByReceiver = "uniq_payments_by_receiver"
        case contextualMessages = "contextual_messages"
        case blocksProcessed = "blocks_processed"
        case latestBlock = "latest_block"
        case latestAcceptingBlock = "latest_accepting_block"
        case unknownSenderEntries = "unknown_sender_entries"
        case resolvedSenders = "resolved_senders"
        case prunedBlocks = "pruned_blocks"
    }

    /// The names before August 2025.
    private enum OlderKeys: String, CodingKey {
        case handshakesByReceiver = "handshakes_by_receiver"
        case paymentsByReceiver = "payments_by_receiver"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let older = try decoder.container(keyedBy: OlderKeys.self)
        handshakesBySender = try container.decode(UInt64.self, forKey: .handshakesBySender)
        handshakesByReceiver =
            try container.decodeIfPresent(UInt64.self, forKey: .handshakesByReceiver)
            ?? older.decode(UInt64.self, forKey: .handshakesByReceiver)
        paymentsBySender = try container.decode(UInt64.self, forKey: .paymentsBySender)
        paymentsByReceiver =
            try container.decodeIfPresent(UInt64.self, forKey: .paymentsByReceiver)
            ?? older.decode(UInt64.self, forKey: .paymentsByReceiver)
        contextualMessages = try container.decode(UInt64.self, forKey: .contextualMessages)
        blocksProcessed = try container.decode(UInt64.self, forKey: .blocksProcessed)
        latestBlock = try container.decode(String.self, forKey: .latestBlock)
        latestAcceptingBlock = try container.decode(String.self, forKey: .latestAcceptingBlock)
        unknownSenderEntries = try container.decode(UInt64.self, forKey: .unknownSenderEntries)
        resolvedSenders = try container.decode(UInt64.self, forKey: .resolvedSenders)
        prunedBlocks = try container.decode(UInt64.self, forKey: .prunedBlocks)
    }
}
