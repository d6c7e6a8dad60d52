import Foundation
import GRDB
import TandemBasics

/// How one batch of relay submissions is stored on SQLite (issue 11 "Figures"): the whole batch
/// in one write transaction, so a burst costs one WAL commit (one `fsync`) instead of one each.
/// ``GroupCommitter`` forms the batches and runs them one after another, so positions follow
/// commit order: each row gets `max(now, last + 1)` (``KasiaPositions``) with `last` the
/// previous row's time (issue 11 item 2, the paging reader's "never miss a row").
enum SQLiteKasiaBatch {
    /// Commits `entries` in one transaction; when that fails, each in its own, so one bad row
    /// cannot fail the submissions that arrived with it.
    static func commit(_ entries: [KasiaAppend], database: SQLiteDatabase) async
        -> [Result<KasiaAppendOutcome, any Error>]
    {
        do {
            return try await database.write { db in
                var positions = KasiaPositions(last: try latestBlockTime(db))
                return try entries.map { try append($0.draft, now: $0.now, positions: &positions, db) }
            }.map { .success($0) }
        } catch {
            guard entries.count > 1 else { return [.failure(error)] }
        }
        var results: [Result<KasiaAppendOutcome, any Error>] = []
        for entry in entries {
            do {
                results.append(
                    .success(
                        try await database.write { db in
                            var positions = KasiaPositions(last: try latestBlockTime(db))
                            return try append(entry.draft, now: entry.now, positions: &positions, db)
                        }))
            } catch {
                results.append(.failure(error))
            }
        }
        return results
    }

    /// The newest stored position, read once per transaction: inside it this writer is the
    /// only one, so the batch carries the value forward instead of asking SQLite per row.
    static func latestBlockTime(_ db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(seq) FROM kasia_tx"))
    }

    /// One row inside the batch's transaction: a `tx_id` already stored (earlier, or earlier in
    /// this batch) answers the stored row; otherwise the row is inserted under its compact keys
    /// (``SQLiteKasiaKeys``). The check is one probe of the 8-byte key's index. `positions`
    /// holds the newest position in the transaction so far; it advances only when a row is stored.
    private static func append(
        _ draft: KasiaRecordDraft, now: UnixMillis, positions: inout KasiaPositions, _ db: Database
    ) throws -> KasiaAppendOutcome {
        let key = SQLiteKasiaKeys.transactionKey(draft.txID)
        if try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT seq FROM kasia_tx WHERE tx_key = ? AND tx_id = ?"),
            arguments: [key, draft.txID]) != nil
        {
            // Read back through the address and tag ids: a row whose ids lead nowhere is
            // corrupt, never a reason to store the transaction a second time.
            guard let existing = try SQLiteServerStore.record(txID: draft.txID, db) else {
                throw ServerStoreError.corruptRow(
                    table: "kasia_tx", reason: "tx \(draft.txID): its sender or tag id names no stored row")
            }
            return .existing(existing)
        }
        let ids = try SQLiteKasiaKeys.ids(of: draft, db)
        // A relayed row's position is also its block time and its relay time.
        let blockTime = positions.take(at: now)
        try db.cachedStatement(
            sql: """
                INSERT INTO kasia_tx (seq, tx_key, tx_id, block_time, kind, sender_id, receiver_id, tag_id, amount, body,
                                      payload, nonce, signature, relayed_time)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            blockTime, key, draft.txID, blockTime, SQLiteKasiaKeys.code(draft.kind), ids.sender, ids.receiver,
            ids.tag, draft.amount, Data(draft.body), Data(draft.payload), String(draft.nonce), draft.signature,
            blockTime,
        ])
        return .inserted(KasiaRecord(draft: draft, relayedAt: blockTime))
    }
}
