import Foundation
import GRDB
import TandemBasics

/// Group commit for relay submissions on SQLite (issue 11 "Figures"): submissions that arrive
/// while a write transaction is running wait together and are committed by the next one, so
/// a burst costs one WAL commit (one `fsync`) instead of one each.
///
/// One task drains the queue, so batches commit one after another and positions follow
/// commit order: each row gets `max(now, last + 1)` with `last` the previous row's time
/// (issue 11 item 2, the paging reader's "never miss a row"). Each caller is answered only
/// after the transaction holding its row has committed.
actor SQLiteKasiaCommitter {
    private struct Waiter {
        let draft: KasiaRecordDraft
        let now: UnixMillis
        let continuation: CheckedContinuation<KasiaAppendOutcome, any Error>
    }

    private let database: SQLiteDatabase
    private var queue: [Waiter] = []
    private var draining = false

    /// Most rows one transaction commits; bounds the time the first caller of a batch waits.
    static let maximumBatch = 256

    init(database: SQLiteDatabase) {
        self.database = database
    }

    func append(_ draft: KasiaRecordDraft, now: UnixMillis) async throws -> KasiaAppendOutcome {
        try await withCheckedThrowingContinuation { continuation in
            queue.append(Waiter(draft: draft, now: now, continuation: continuation))
            if !draining {
                draining = true
                Task { await drain() }
            }
        }
    }

    private func drain() async {
        while !queue.isEmpty {
            let batch = Array(queue.prefix(Self.maximumBatch))
            queue.removeFirst(batch.count)
            let results = await Self.commit(batch.map { ($0.draft, $0.now) }, database: database)
            for (waiter, result) in zip(batch, results) { waiter.continuation.resume(with: result) }
        }
        draining = false
    }

    /// Commits `entries` in one transaction; when that fails, each in its own, so one bad row
    /// cannot fail the submissions that arrived with it.
    private static func commit(_ entries: [(KasiaRecordDraft, UnixMillis)], database: SQLiteDatabase) async
        -> [Result<KasiaAppendOutcome, any Error>]
    {
        do {
            return try await database.write { db in
                var positions = KasiaPositions(last: try latestBlockTime(db))
                return try entries.map { try append($0.0, now: $0.1, positions: &positions, db) }
            }.map { .success($0) }
        } catch {
            guard entries.count > 1 else { return [.failure(error)] }
        }
        var results: [Result<KasiaAppendOutcome, any Error>] = []
        for (draft, now) in entries {
            do {
                results.append(
                    .success(
                        try await database.write { db in
                            var positions = KasiaPositions(last: try latestBlockTime(db))
                            return try append(draft, now: now, positions: &positions, db)
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
