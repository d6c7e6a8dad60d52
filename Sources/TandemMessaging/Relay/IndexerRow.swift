public import TandemAPI

/// What the paging rule needs from an indexer row (kasia-protocol §10): its transaction id,
/// for de-duplication, and its block time, the cursor.
public protocol IndexerRow: Decodable, Sendable {
    var txID: String { get }
    var blockTime: UInt64 { get }
    /// False for a row the indexer has not finished: kasia-indexer answers a handshake's sender
    /// `""`, a payment's `null`, until it resolves it (kaspa-node.md §11). Such a row is read
    /// again later, not taken as seen.
    var isFinal: Bool { get }
}

extension IndexerRow {
    public var isFinal: Bool { true }
}

extension IndexerHandshake: IndexerRow {
    public var isFinal: Bool { !sender.isEmpty }
}
extension IndexerContextualMessage: IndexerRow {}
extension IndexerPayment: IndexerRow {
    public var isFinal: Bool { !(sender ?? "").isEmpty }
}
extension IndexerSelfStash: IndexerRow {}
extension IndexerBroadcast: IndexerRow {}
