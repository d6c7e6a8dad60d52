import Foundation
import GRDB
public import TandemBasics

extension SQLiteServerStore {
    /// Through the group committer (``SQLiteKasiaBatch``): one transaction per burst.
    public func appendKasiaRecord(_ draft: KasiaRecordDraft, now: UnixMillis) async throws -> KasiaAppendOutcome {
        try await committer.submit(KasiaAppend(draft: draft, now: now))
    }

    public func kasiaRecord(txID: String) async throws -> KasiaRecord? {
        try readNow { db in try Self.record(txID: txID, db) }
    }

    /// The stored row of `txID`: the 8-byte key finds its candidates, the full id picks it.
    static func record(txID: String, _ db: Database) throws -> KasiaRecord? {
        try fetchRecords(db, "WHERE t.tx_key = ? AND t.tx_id = ?", [SQLiteKasiaKeys.transactionKey(txID), txID]).first
    }

    public func kasiaRecords(_ query: KasiaIndexQuery, from blockTime: UnixMillis, limit: Int) async throws
        -> [KasiaRecord]
    {
        let parts = KasiaRecordColumns.condition(query)
        let kind = SQLiteKasiaKeys.code(parts.kind)
        return try readNow { db in
            if parts.byReceiver {
                return try Self.fetchRecords(
                    db,
                    """
                    WHERE t.receiver_id = (SELECT id FROM kasia_address WHERE address = ?) AND t.kind = ?
                        AND t.block_time >= ? AND length(t.payload) <= ?
                    ORDER BY t.block_time, t.tx_key, t.tx_id LIMIT ?
                    """,
                    [parts.address, kind, blockTime.rawValue, KasiaPayloadLimit.bytes, limit])
            }
            return try Self.fetchRecords(
                db,
                """
                WHERE t.sender_id = (SELECT id FROM kasia_address WHERE address = ?)
                    AND t.tag_id = (SELECT id FROM kasia_tag WHERE tag = ?) AND t.kind = ?
                    AND t.block_time >= ? AND length(t.payload) <= ?
                ORDER BY t.block_time, t.tx_key, t.tx_id LIMIT ?
                """,
                [parts.address, parts.tag, kind, blockTime.rawValue, KasiaPayloadLimit.bytes, limit])
        }
    }

    public func kasiaRecords(after position: Int64, watching watch: KasiaWatch?, limit: Int) async throws
        -> [KasiaRecord]
    {
        try readNow { db in
            guard let watch else {
                return try Self.fetchRecords(
                    db, "WHERE t.seq > ? AND length(t.payload) <= ? ORDER BY t.seq LIMIT ?",
                    [position, KasiaPayloadLimit.bytes, limit])
            }
            let addresses = Array(watch.addresses)
            let aliases = Array(watch.aliasHexes)
            let addressMarks = Self.marks(addresses.count)
            let aliasMarks = Self.marks(aliases.count)
            var arguments: [any DatabaseValueConvertible] = [position, KasiaPayloadLimit.bytes]
            arguments += addresses
            arguments += addresses
            arguments.append(SQLiteKasiaKeys.code(.contextualMessage))
            arguments += aliases
            arguments.append(limit)
            return try Self.fetchRecords(
                db,
                """
                WHERE t.seq > ? AND length(t.payload) <= ?
                    AND (t.sender_id IN (SELECT id FROM kasia_address WHERE address IN (\(addressMarks)))
                        OR t.receiver_id IN (SELECT id FROM kasia_address WHERE address IN (\(addressMarks)))
                        OR (t.kind = ? AND t.tag_id IN (SELECT id FROM kasia_tag WHERE tag IN (\(aliasMarks)))))
                ORDER BY t.seq LIMIT ?
                """, StatementArguments(arguments), cached: false)
        }
    }

    public func latestKasiaPosition() async throws -> Int64? {
        try readNow { db in try Int64.fetchOne(db.cachedStatement(sql: "SELECT MAX(seq) FROM kasia_tx")) }
    }

    public func kasiaCounts() async throws -> KasiaCounts {
        try readNow { db in
            var counts: [KasiaRecordKind: Int64] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT kind, COUNT(*) AS n FROM kasia_tx GROUP BY kind") {
                if let kind = SQLiteKasiaKeys.kind(code: row["kind"]) { counts[kind] = row["n"] }
            }
            return KasiaCounts(byKind: counts)
        }
    }

    public func listenForKasiaCommits(_ onCommit: @escaping @Sendable () async -> Void) async throws {
        // One process writes the SQLite file and pokes its own fan-out; nothing to listen to.
        while !Task.isCancelled {
            try await Task.sleep(for: .seconds(3600))
        }
    }

    /// `?, ?, …` for an IN list; `NULL` for an empty one (which then matches nothing).
    private static func marks(_ count: Int) -> String {
        count == 0 ? "NULL" : Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// Fixed queries are cached per connection, so SQLite does not compile the same text on
    /// every request (BENCHMARKS.md, issue 11); a watch's IN lists vary in length, so caching
    /// them would grow the cache without bound.
    static func fetchRecords(
        _ db: Database, _ tail: String, _ arguments: StatementArguments, cached: Bool = true
    ) throws -> [KasiaRecord] {
        let sql = "\(SQLiteKasiaKeys.selectRecords) \(tail)"
        let statement = try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        return try Row.fetchAll(statement, arguments: arguments).map {
            row in
            let body: Data = row["body"]
            let payload: Data = row["payload"]
            let txID: String = row["tx_id"]
            let code: Int64 = row["kind"]
            guard let kind = SQLiteKasiaKeys.kind(code: code) else {
                throw ServerStoreError.corruptRow(table: "kasia_tx", reason: "tx \(txID): unknown kind code \(code)")
            }
            return try KasiaRecordColumns.record(
                txID: txID, blockTime: row["block_time"], kind: kind, sender: row["sender"],
                receiver: row["receiver"], amount: row["amount"], tag: row["tag"], body: Array(body),
                payload: Array(payload), nonce: row["nonce"], signature: row["signature"], position: row["seq"],
                acceptingBlock: row["accepting_block"], acceptingDaaScore: row["accepting_daa_score"])
        }
    }
}
