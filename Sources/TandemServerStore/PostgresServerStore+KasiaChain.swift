import Foundation
import Logging
import PostgresNIO
public import TandemBasics

extension PostgresServerStore {
    /// The session advisory lock whose holder is the one chain ingester (issue 25 item 4).
    static let ingesterLockKey: Int64 = 7_037_825

    public func kasiaChainCursor() async throws -> KasiaChainCursor? {
        let rows = try await database.query(
            "SELECT block, daa_score, block_time, network FROM kasia_chain WHERE id = 1", logger: logger)
        for (block, score, time, network) in try rows.decode((String, Int64, Int64, String).self) {
            return KasiaChainCursor(
                block: block, daaScore: UInt64(clamping: score), blockTime: UnixMillis(time), network: network)
        }
        return nil
    }

    /// One transaction, a fixed number of statements whatever the page's size: the cursor row
    /// and `kasia_clock`'s row are locked first (the relay's inserts take the clock's lock too,
    /// so positions stay in commit order across instances), positions are assigned here, and
    /// the rows go in through `unnest` in one upsert.
    public func applyKasiaChainPage(_ page: KasiaChainPage, now: UnixMillis) async throws -> KasiaChainApplied {
        do { return try await applyInTransaction(page, now: now) } catch let error as PostgresTransactionError {
            // The store's own refusal, not the database's failure.
            if let refusal = error.closureError as? ServerStoreError { throw refusal }
            throw error
        }
    }

    private func applyInTransaction(_ page: KasiaChainPage, now: UnixMillis) async throws -> KasiaChainApplied {
        try await database.withTransaction(logger: logger) { connection in
            var found: String?
            for try await block in try await connection.query(
                "SELECT block FROM kasia_chain WHERE id = 1 FOR UPDATE", logger: logger
            ).decode(String.self) { found = block }
            guard found == page.from?.block else {
                throw ServerStoreError.chainCursorMoved(expected: page.from?.block, found: found)
            }
            var stored: Int64?
            for try await value in try await connection.query(
                "SELECT last FROM kasia_clock WHERE id = 1 FOR UPDATE", logger: logger
            ).decode(Int64.self) { stored = value }
            var removedRows: [KasiaChainPlan.RemovedRow] = []
            if !page.removedBlocks.isEmpty {
                for try await (txID, block, position, relayed) in try await connection.query(
                    """
                    SELECT tx_id, accepting_block, seq, relayed_time FROM kasia_tx
                    WHERE accepting_block = ANY(\(page.removedBlocks))
                    """, logger: logger
                ).decode((String, String, Int64, Int64?).self) {
                    removedRows.append(
                        KasiaChainPlan.RemovedRow(txID: txID, block: block, position: position, relayedTime: relayed))
                }
            }
            var current: [String: String?] = [:]
            if !page.rows.isEmpty {
                for try await (txID, block) in try await connection.query(
                    "SELECT tx_id, accepting_block FROM kasia_tx WHERE tx_id = ANY(\(page.rows.map(\.draft.txID)))",
                    logger: logger
                ).decode((String, String?).self) { current[txID] = .some(block) }
            }
            let plan = KasiaChainPlan(
                page: page, removedRows: removedRows, stored: current, positions: KasiaPositions(last: stored), now: now
            )
            if !plan.deletions.isEmpty {
                try await connection.query(
                    "DELETE FROM kasia_tx WHERE tx_id = ANY(\(plan.deletions))", logger: logger)
            }
            if !plan.unaccepts.isEmpty {
                let unaccepts = plan.unaccepts
                try await connection.query(
                    """
                    UPDATE kasia_tx k SET accepting_block = NULL, accepting_daa_score = NULL, block_time = u.block_time,
                        seq = u.seq
                    FROM unnest(\(unaccepts.map(\.txID))::text[], \(unaccepts.map(\.blockTime))::int8[],
                                \(unaccepts.map(\.position))::int8[]) AS u(tx_id, block_time, seq)
                    WHERE k.tx_id = u.tx_id
                    """, logger: logger)
            }
            if !plan.writes.isEmpty {
                try await Self.upsert(plan.writes, connection)
            }
            let applied = plan.applied
            let last = plan.lastPosition ?? 0
            try await connection.query(
                "UPDATE kasia_clock SET last = \(last) WHERE id = 1 AND last < \(last)", logger: logger)
            try await connection.query(
                """
                INSERT INTO kasia_chain (id, block, daa_score, block_time, network)
                VALUES (1, \(page.to.block), \(Int64(clamping: page.to.daaScore)), \(page.to.blockTime.rawValue),
                        \(page.to.network))
                ON CONFLICT (id) DO UPDATE SET block = excluded.block, daa_score = excluded.daa_score,
                    block_time = excluded.block_time, network = excluded.network
                """, logger: logger)
            if applied.changedRows {
                try await connection.query("SELECT pg_notify(\(Self.kasiaChannel), \(String(last)))", logger: logger)
            }
            return applied
        }
    }

    /// Inserts or moves the plan's rows by tx id, each at its position; a relayed row keeps its
    /// `relayed_time`.
    private static func upsert(_ writes: [KasiaChainPlan.Write], _ connection: PostgresConnection) async throws {
        let rows = writes.map(\.row)
        let positions = writes.map(\.position)
        let drafts = rows.map(\.draft)
        try await connection.query(
            """
            INSERT INTO kasia_tx (tx_id, seq, block_time, kind, sender, receiver, amount, tag, body, payload, nonce,
                                  signature, accepting_block, accepting_daa_score)
            SELECT tx_id, seq, block_time, kind, sender, NULLIF(receiver, ''), amount, tag, decode(body, 'hex'),
                   decode(payload, 'hex'), nonce, signature, accepting_block, accepting_daa_score
            FROM unnest(
                \(drafts.map(\.txID))::text[], \(positions)::int8[], \(rows.map(\.blockTime.rawValue))::int8[],
                \(drafts.map(\.kind.rawValue))::text[], \(drafts.map(\.sender))::text[],
                \(drafts.map { $0.receiver ?? "" })::text[], \(drafts.map(\.amount))::int8[], \(drafts.map(\.tag))::text[],
                \(drafts.map { Hex.encode($0.body) })::text[], \(drafts.map { Hex.encode($0.payload) })::text[],
                \(drafts.map { String($0.nonce) })::text[], \(drafts.map(\.signature))::text[],
                \(rows.map(\.acceptance.block))::text[], \(rows.map { Int64(clamping: $0.acceptance.daaScore) })::int8[]
            ) AS t(tx_id, seq, block_time, kind, sender, receiver, amount, tag, body, payload, nonce, signature,
                   accepting_block, accepting_daa_score)
            ON CONFLICT (tx_id) DO UPDATE SET seq = excluded.seq, block_time = excluded.block_time,
                kind = excluded.kind, sender = excluded.sender, receiver = excluded.receiver, amount = excluded.amount,
                tag = excluded.tag, body = excluded.body, payload = excluded.payload, nonce = excluded.nonce,
                signature = excluded.signature, accepting_block = excluded.accepting_block,
                accepting_daa_score = excluded.accepting_daa_score
            """, logger: connection.logger)
    }

    /// Holds the ingester lock on a connection kept for the purpose while `body` runs; a
    /// failed check of that connection (every `retry`) cancels `body`, since the lock went
    /// with it. Without the lock, tries again every `retry`.
    public func asKasiaIngester(retry: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws {
        while !Task.isCancelled {
            do {
                try await database.holdingConnection { connection in
                    var held = false
                    for try await got in try await connection.query(
                        "SELECT pg_try_advisory_lock(\(Self.ingesterLockKey))", logger: logger
                    ).decode(Bool.self) { held = got }
                    guard held else { return }
                    let outcome: Result<Void, any Error>
                    do {
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask { try await body() }
                            group.addTask {
                                while true {
                                    try await Task.sleep(for: retry)
                                    try await connection.query("SELECT 1", logger: logger)
                                }
                            }
                            defer { group.cancelAll() }
                            try await group.next()
                        }
                        outcome = .success(())
                    } catch { outcome = .failure(error) }
                    // The connection goes back to the pool: it must not keep the lock there.
                    do {
                        try await connection.query("SELECT pg_advisory_unlock(\(Self.ingesterLockKey))", logger: logger)
                    } catch { try? await connection.close() }
                    try outcome.get()
                }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                logger.warning("kasia ingester lock: \(error)")
            }
            try await Task.sleep(for: retry)
        }
        throw CancellationError()
    }
}
