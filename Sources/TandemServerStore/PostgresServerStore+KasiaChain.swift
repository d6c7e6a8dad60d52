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
            var positions = KasiaPositions(last: stored)
            func next() -> Int64 { positions.take(at: now) }
            var applied = KasiaChainApplied()
            if !page.removedBlocks.isEmpty {
                // A row the page accepts again elsewhere is moved below, not removed here.
                let reaccepted = page.rows.map(\.draft.txID)
                applied.removed = try await connection.query(
                    """
                    DELETE FROM kasia_tx WHERE accepting_block = ANY(\(page.removedBlocks)) AND relayed_time IS NULL
                        AND NOT (tx_id = ANY(\(reaccepted)))
                    RETURNING tx_id
                    """, logger: logger
                ).collect().count
                var relayed: [String] = []
                for try await txID in try await connection.query(
                    """
                    SELECT tx_id FROM kasia_tx WHERE accepting_block = ANY(\(page.removedBlocks))
                        AND relayed_time IS NOT NULL AND NOT (tx_id = ANY(\(reaccepted))) ORDER BY seq
                    """,
                    logger: logger
                ).decode(String.self) { relayed.append(txID) }
                if !relayed.isEmpty {
                    let positions = relayed.map { _ in next() }
                    try await connection.query(
                        """
                        UPDATE kasia_tx k SET accepting_block = NULL, accepting_daa_score = NULL,
                            block_time = k.relayed_time, seq = u.seq
                        FROM unnest(\(relayed)::text[], \(positions)::int8[]) AS u(tx_id, seq) WHERE k.tx_id = u.tx_id
                        """, logger: logger)
                    applied.unaccepted = relayed.count
                }
            }
            if !page.rows.isEmpty {
                var current: [String: String?] = [:]
                for try await (txID, block) in try await connection.query(
                    "SELECT tx_id, accepting_block FROM kasia_tx WHERE tx_id = ANY(\(page.rows.map(\.draft.txID)))",
                    logger: logger
                ).decode((String, String?).self) { current[txID] = block }
                // Accepted again by the block that already accepted it: nothing changes.
                let changed = page.rows.filter { row in
                    guard let stored = current[row.draft.txID] else { return true }
                    return stored != row.acceptance.block
                }
                applied.moved = changed.count { current[$0.draft.txID] != nil }
                applied.inserted = changed.count - applied.moved
                if !changed.isEmpty {
                    try await Self.upsert(changed, positions: changed.map { _ in next() }, connection)
                }
            }
            let last = positions.last ?? 0
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

    /// Inserts or moves `rows` by tx id, each at its position; a relayed row keeps its
    /// `relayed_time`.
    private static func upsert(_ rows: [KasiaChainRow], positions: [Int64], _ connection: PostgresConnection)
        async throws
    {
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
