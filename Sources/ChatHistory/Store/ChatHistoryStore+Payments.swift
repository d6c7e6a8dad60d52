import GRDB

extension ChatHistoryStore {
    /// The block time of the oldest incoming payment not verified yet (issue 50 item 7) that is at
    /// least as new as `since`, nil when there is none: where a sync reads a relay's payments
    /// again, to learn which a chain block has accepted since. A seek on a partial index.
    public func oldestUnverifiedPayment(since: UInt64) throws -> UInt64? {
        try writer.read { db in
            try Int64.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT min(blockTime) FROM message INDEXED BY message_unverified_payment
                        WHERE kind = 'payment' AND status != 'confirmed' AND direction = 'incoming' AND blockTime >= ?
                        """),
                arguments: [Int64(clamping: since)]
            ).map { UInt64(clamping: $0) }
        }
    }
}
