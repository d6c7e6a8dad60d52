import Foundation
import GRDB
public import TandemBasics

extension SQLiteServerStore {
    /// Through the group committer (``SQLiteKasiaBatch``): one transaction per burst.
    public func appendKasiaRecord(_ draft: KasiaRecordDraft, now: UnixMillis) async throws -> KasiaAppendOutcome {
        try await committer.submit(KasiaAppend(draft: draft, now: now))
    }

    public func kasiaRecord(txID: String) async throws -> KasiaRecord? {
        try readNow { db in try Self.fetchRecords(db, "WHERE tx_id = ?", [txID]).first }
    }

    public func kasiaRecords(_ query: KasiaIndexQuery, from blockTime: UnixMillis, limit: Int) async throws
        -> [KasiaRecord]
    {
        let parts = KasiaRecordColumns.condition(query)
        return try readNow { db in
            if parts.byReceiver {
                return try Self.fetchRecords(
                    db,
                    "WHERE kind = ? AND receiver = ? AND block_time >= ? AND length(payload) <= ? ORDER BY block_time, tx_id LIMIT ?",
                    [parts.kind.rawValue, parts.address, blockTime.rawValue, KasiaPayloadLimit.bytes, limit])
            }
            return try Self.fetchRecords(
                db,
                "WHERE kind = ? AND sender = ? AND tag = ? AND block_time >= ? AND length(payload) <= ? ORDER BY block_time, tx_id LIMIT ?",
                [parts.kind.rawValue, parts.address, parts.tag, blockTime.rawValue, KasiaPayloadLimit.bytes, limit])
        }
    }

    public func kasiaRecords(after position: Int64, watching watch: KasiaWatch?, limit: Int) async throws
        -> [KasiaRecord]
    {
        try readNow { db in
            guard let watch else {
                return try Self.fetchRecords(
                    db, "WHERE seq > ? AND length(payload) <= ? ORDER BY seq LIMIT ?",
                    [position, KasiaPayloadLimit.bytes, limit])
            }
            let addresses = Array(watch.addresses)
            let aliases = Array(watch.aliasHexes)
            let addressMarks = Self.marks(addresses.count)
            let aliasMarks = Self.marks(aliases.count)
            var arguments: [any DatabaseValueConvertible] = [position, KasiaPayloadLimit.bytes]
            arguments += addresses
            arguments += addresses
            arguments.append(KasiaRecordKind.contextualMessage.rawValue)
            arguments += aliases
            arguments.append(limit)
            return try Self.fetchRecords(
                db,
                """
                WHERE seq > ? AND length(payload) <= ? AND (sender IN (\(addressMarks)) OR receiver IN (\(addressMarks))
                    OR (kind = ? AND tag IN (\(aliasMarks))))
                ORDER BY seq LIMIT ?
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
                if let kind = KasiaRecordKind(rawValue: row["kind"]) { counts[kind] = row["n"] }
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
        let sql = "SELECT \(KasiaRecordColumns.list) FROM kasia_tx \(tail)"
        let statement = try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        return try Row.fetchAll(statement, arguments: arguments).map {
            row in
            let body: Data = row["body"]
            let payload: Data = row["payload"]
            return try KasiaRecordColumns.record(
                txID: row["tx_id"], blockTime: row["block_time"], kind: row["kind"], sender: row["sender"],
                receiver: row["receiver"], amount: row["amount"], tag: row["tag"], body: Array(body),
                payload: Array(payload), nonce: row["nonce"], signature: row["signature"], position: row["seq"],
                acceptingBlock: row["accepting_block"], acceptingDaaScore: row["accepting_daa_score"])
        }
    }
}
