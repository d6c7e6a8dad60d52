import Foundation
import GRDB
public import TandemBasics

extension SQLiteServerStore {
    public func kasiaChainCursor() async throws -> KasiaChainCursor? {
        try readNow { db in try Self.chainCursor(db) }
    }

    /// One write transaction: GRDB's single writer orders it with the relay's group commits, and
    /// both read the newest position inside their transaction, so positions stay in commit order.
    public func applyKasiaChainPage(_ page: KasiaChainPage, now: UnixMillis) async throws -> KasiaChainApplied {
        try await database.write { db in try Self.apply(page, now: now, db) }
    }

    /// One process owns the SQLite file: it is the ingester at once.
    public func asKasiaIngester(retry: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws {
        try await body()
    }

    static func chainCursor(_ db: Database) throws -> KasiaChainCursor? {
        guard
            let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT block, daa_score, block_time, network FROM kasia_chain WHERE id = 1"))
        else { return nil }
        let score: Int64 = row["daa_score"]
        guard score >= 0 else { throw ServerStoreError.corruptRow(table: "kasia_chain", reason: "negative DAA score") }
        let time: Int64 = row["block_time"]
        return KasiaChainCursor(
            block: row["block"], daaScore: UInt64(score), blockTime: UnixMillis(time), network: row["network"])
    }

    private static func apply(_ page: KasiaChainPage, now: UnixMillis, _ db: Database) throws -> KasiaChainApplied {
        let stored = try chainCursor(db)
        guard stored?.block == page.from?.block else {
            throw ServerStoreError.chainCursorMoved(expected: page.from?.block, found: stored?.block)
        }
        var removedRows: [KasiaChainPlan.RemovedRow] = []
        for block in page.removedBlocks {
            for row in try Row.fetchAll(
                db.cachedStatement(sql: "SELECT tx_id, seq, relayed_time FROM kasia_tx WHERE accepting_block = ?"),
                arguments: [block])
            {
                removedRows.append(
                    KasiaChainPlan.RemovedRow(
                        txID: row["tx_id"], block: block, position: row["seq"], relayedTime: row["relayed_time"]))
            }
        }
        var acceptances: [String: String?] = [:]
        for txID in Set(page.rows.map(\.draft.txID)) {
            if let row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT accepting_block FROM kasia_tx WHERE tx_key = ? AND tx_id = ?"),
                arguments: [SQLiteKasiaKeys.transactionKey(txID), txID])
            {
                let block: String? = row["accepting_block"]
                acceptances[txID] = .some(block)
            }
        }
        let plan = KasiaChainPlan(
            page: page, removedRows: removedRows, stored: acceptances,
            positions: KasiaPositions(last: try SQLiteKasiaBatch.latestBlockTime(db)), now: now)
        for txID in plan.deletions {
            try db.cachedStatement(sql: "DELETE FROM kasia_tx WHERE tx_key = ? AND tx_id = ?")
                .execute(arguments: [SQLiteKasiaKeys.transactionKey(txID), txID])
        }
        for unaccept in plan.unaccepts {
            try db.cachedStatement(
                sql: """
                    UPDATE kasia_tx SET accepting_block = NULL, accepting_daa_score = NULL, block_time = ?, seq = ?
                    WHERE tx_key = ? AND tx_id = ?
                    """
            ).execute(arguments: [
                unaccept.blockTime, unaccept.position, SQLiteKasiaKeys.transactionKey(unaccept.txID), unaccept.txID,
            ])
        }
        for write in plan.writes {
            let row = write.row
            let draft = row.draft
            let ids = try SQLiteKasiaKeys.ids(of: draft, db)
            let values: [any DatabaseValueConvertible] = [
                row.blockTime.rawValue, SQLiteKasiaKeys.code(draft.kind), ids.sender, ids.receiver, ids.tag,
                draft.amount, Data(draft.body), Data(draft.payload), String(draft.nonce), draft.signature,
                row.acceptance.block, Int64(clamping: row.acceptance.daaScore), write.position,
                SQLiteKasiaKeys.transactionKey(draft.txID), draft.txID,
            ]
            let sql =
                write.isNew
                ? """
                INSERT INTO kasia_tx (block_time, kind, sender_id, receiver_id, tag_id, amount, body, payload, nonce,
                                      signature, accepting_block, accepting_daa_score, seq, tx_key, tx_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
                : """
                UPDATE kasia_tx SET block_time = ?, kind = ?, sender_id = ?, receiver_id = ?, tag_id = ?, amount = ?,
                    body = ?, payload = ?, nonce = ?, signature = ?, accepting_block = ?, accepting_daa_score = ?, seq = ?
                WHERE tx_key = ? AND tx_id = ?
                """
            try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(values))
        }
        try db.cachedStatement(
            sql: """
                INSERT INTO kasia_chain (id, block, daa_score, block_time, network) VALUES (1, ?, ?, ?, ?)
                ON CONFLICT (id) DO UPDATE SET block = excluded.block, daa_score = excluded.daa_score,
                    block_time = excluded.block_time, network = excluded.network
                """
        ).execute(arguments: [
            page.to.block, Int64(clamping: page.to.daaScore), page.to.blockTime.rawValue, page.to.network,
        ])
        return plan.applied
    }
}
