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

    /// One row inside the batch's transaction: the insert is tried first and skipped on a
    /// `tx_id` already stored (earlier, or earlier in this batch), which then answers the
    /// stored row. The common case, a new row, costs no lookup before the insert. `positions`
    /// holds the newest position in the transaction so far; it advances only when a row is stored.
    private static func append(
        _ draft: KasiaRecordDraft, now: UnixMillis, positions: inout KasiaPositions, _ db: Database
    ) throws -> KasiaAppendOutcome {
        let blockTime = positions.next(at: now)
        try db.cachedStatement(
            sql: """
                INSERT INTO kasia_tx (\(KasiaRecordColumns.relayInsert)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (tx_id) DO NOTHING
                """
        ).execute(arguments: [
            draft.txID, blockTime, draft.kind.rawValue, draft.sender, draft.receiver, draft.amount, draft.tag,
            Data(draft.body), Data(draft.payload), String(draft.nonce), draft.signature, blockTime, blockTime,
        ])
        guard db.changesCount == 0 else {
            _ = positions.take(at: now)
            return .inserted(KasiaRecord(draft: draft, relayedAt: blockTime))
        }
        guard let existing = try SQLiteServerStore.fetchRecords(db, "WHERE tx_id = ?", [draft.txID]).first else {
            throw DatabaseError(
                resultCode: .SQLITE_CONSTRAINT, message: "kasia_tx: insert skipped without a stored row")
        }
        return .existing(existing)
    }
}
