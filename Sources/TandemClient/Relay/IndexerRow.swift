public import TandemAPI

/// What the paging rule needs from an indexer row (kasia-protocol §10): its transaction id,
/// for de-duplication, and its block time, the cursor.
public protocol IndexerRow: Decodable, Sendable {
    var txID: String { get }
    var blockTime: UInt64 { get }
}

extension IndexerHandshake: IndexerRow {}
extension IndexerContextualMessage: IndexerRow {}
extension IndexerPayment: IndexerRow {}
extension IndexerSelfStash: IndexerRow {}
extension IndexerBroadcast: IndexerRow {}
