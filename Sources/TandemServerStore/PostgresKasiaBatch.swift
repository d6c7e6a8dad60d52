import Foundation
import Logging
import PostgresNIO
import TandemBasics

/// How one batch of relay submissions is stored on PostgreSQL (issue 11 "Figures"), the
/// counterpart of ``SQLiteKasiaBatch``; ``GroupCommitter`` forms the batches. `kasia_clock`'s
/// row lock is what keeps block times in commit order across instances (issue 11 item 2), and
/// it is held until COMMIT; one statement per batch takes it once for the whole batch instead of
/// once per row, and pays one round trip and one NOTIFY for all of them.
struct PostgresKasiaBatch {
    let database: PostgresDatabase
    let logger: Logger

    /// Stores `entries` in one statement; when that fails, each alone through the one-row
    /// statement, so one bad row cannot fail the submissions that arrived with it.
    func commit(_ entries: [KasiaAppend]) async -> [Result<KasiaAppendOutcome, any Error>] {
        if entries.count == 1 {
            return [
                await capture {
                    try await PostgresServerStore.appendOne(entries[0].draft, now: entries[0].now, database, logger)
                }
            ]
        }
        do {
            let assigned = try await Self.insertBatch(entries, database, logger)
            var answered = Set<String>()
            var results: [Result<KasiaAppendOutcome, any Error>] = []
            for draft in entries.map(\.draft) {
                // The first entry of a tx_id took the row; a repeat in the batch, or a tx_id
                // stored before, is answered with the stored row.
                if let blockTime = assigned[draft.txID], answered.insert(draft.txID).inserted {
                    results.append(.success(.inserted(KasiaRecord(draft: draft, relayedAt: blockTime))))
                } else {
                    results.append(await capture { try await self.existing(draft.txID) })
                }
            }
            return results
        } catch ServerStoreError.unavailable(let reason) {
            // The database is down or not answering: one by one would only make each later
            // caller of the batch wait out its own deadline too.
            return entries.map { _ in .failure(ServerStoreError.unavailable(reason)) }
        } catch {
            logger.debug("kasia batch of \(entries.count) failed, storing one by one: \(error)")
        }
        var results: [Result<KasiaAppendOutcome, any Error>] = []
        for entry in entries {
            results.append(
                await capture { try await PostgresServerStore.appendOne(entry.draft, now: entry.now, database, logger) }
            )
        }
        return results
    }

    private func capture(_ body: () async throws -> KasiaAppendOutcome) async
        -> Result<KasiaAppendOutcome, any Error>
    {
        do { return .success(try await body()) } catch { return .failure(error) }
    }

    private func existing(_ txID: String) async throws -> KasiaAppendOutcome {
        guard let record = try await PostgresServerStore.stored(txID: txID, database, logger) else {
            throw ServerStoreError.corruptRow(
                table: "kasia_tx", reason: "tx \(txID): insert skipped without a stored row")
        }
        return .existing(record)
    }

    /// One statement, its own transaction. The rows not yet stored (the first of each `tx_id`)
    /// are numbered 1…n in arrival order; the clock UPDATE takes the row lock once and steps
    /// `last` to `max(last, max(now_i - i)) + n`, so row i gets `base + i`, which is after every
    /// earlier row and never before its own `now` — what the one-row statement guarantees,
    /// for n rows at once. One NOTIFY carries the newest block time. Answers tx_id → block time
    /// of the rows it inserted.
    private static func insertBatch(
        _ entries: [KasiaAppend], _ database: PostgresDatabase, _ logger: Logger
    )
        async throws -> [String: Int64]
    {
        let drafts = entries.map(\.draft)
        let rows = try await database.query(
            """
            WITH input AS (
                SELECT * FROM unnest(
                    \(drafts.map(\.txID))::text[], \(drafts.map(\.kind.rawValue))::text[], \(drafts.map(\.sender))::text[],
                    \(drafts.map { $0.receiver ?? "" })::text[], \(drafts.map(\.amount))::int8[], \(drafts.map(\.tag))::text[],
                    \(drafts.map { Hex.encode($0.body) })::text[], \(drafts.map { Hex.encode($0.payload) })::text[],
                    \(drafts.map { String($0.nonce) })::text[], \(drafts.map(\.signature))::text[],
                    \(entries.map(\.now.rawValue))::int8[]
                ) WITH ORDINALITY AS t(tx_id, kind, sender, receiver, amount, tag, body, payload, nonce, signature, clock_now, ord)
            ), fresh AS (
                SELECT DISTINCT ON (tx_id) * FROM input i
                WHERE NOT EXISTS (SELECT 1 FROM kasia_tx k WHERE k.tx_id = i.tx_id)
                ORDER BY tx_id, ord
            ), numbered AS (
                SELECT *, row_number() OVER (ORDER BY ord) AS n FROM fresh
            ), stats AS (
                SELECT count(*) AS n, max(clock_now - numbered.n) AS m FROM numbered
            ), clock AS (
                UPDATE kasia_clock SET last = GREATEST(last, stats.m) + stats.n FROM stats
                WHERE id = 1 AND stats.n > 0
                RETURNING last - stats.n AS base
            ), inserted AS (
                INSERT INTO kasia_tx (\(unescaped: KasiaRecordColumns.relayInsert))
                SELECT tx_id, base + numbered.n, kind, sender, NULLIF(receiver, ''), amount, tag, decode(body, 'hex'),
                       decode(payload, 'hex'), nonce, signature, base + numbered.n, base + numbered.n
                FROM numbered, clock ORDER BY numbered.n
                ON CONFLICT (tx_id) DO NOTHING RETURNING tx_id, block_time
            ), notified AS (
                SELECT pg_notify(\(PostgresServerStore.kasiaChannel), max(block_time)::text) FROM inserted
                HAVING count(*) > 0
            )
            SELECT tx_id, block_time FROM inserted, (SELECT count(*) FROM notified) AS sent
            """, logger: logger)
        var assigned: [String: Int64] = [:]
        for (txID, blockTime) in try rows.decode((String, Int64).self) { assigned[txID] = blockTime }
        return assigned
    }
}
