import Foundation
import Logging
import PostgresNIO
public import TandemBasics

extension PostgresServerStore {
    /// The NOTIFY channel every instance LISTENs on; the payload is the newest position.
    static let kasiaChannel = "kasia_tx"

    /// Through the group committer (``PostgresKasiaBatch``): one statement per burst.
    public func appendKasiaRecord(_ draft: KasiaRecordDraft, now: UnixMillis) async throws -> KasiaAppendOutcome {
        try await committer.submit(KasiaAppend(draft: draft, now: now))
    }

    /// One row in one statement, so one round trip (it was six: a lookup, BEGIN, the
    /// clock UPDATE, the INSERT, NOTIFY and COMMIT; BENCHMARKS.md, issue 11). The statement is
    /// its own transaction: the UPDATE takes kasia_clock's row lock and holds it until the
    /// statement commits, so every instance assigns block times one at a time, in commit order
    /// (issue 11 item 2), and the NOTIFY goes out on commit. A `tx_id` already stored inserts
    /// nothing (the clock may step once for it, which leaves a gap no reader minds) and the
    /// stored row is answered.
    static func appendOne(_ draft: KasiaRecordDraft, now: UnixMillis, _ database: PostgresDatabase, _ logger: Logger)
        async throws -> KasiaAppendOutcome
    {
        let rows = try await database.query(
            """
            WITH clock AS (
                UPDATE kasia_clock SET last = GREATEST(last + 1, \(now.rawValue))
                WHERE id = 1 AND NOT EXISTS (SELECT 1 FROM kasia_tx WHERE tx_id = \(draft.txID))
                RETURNING last
            ), inserted AS (
                INSERT INTO kasia_tx (\(unescaped: KasiaRecordColumns.relayInsert))
                SELECT \(draft.txID), last, \(draft.kind.rawValue), \(draft.sender), \(draft.receiver), \(draft.amount),
                       \(draft.tag), \(Data(draft.body)), \(Data(draft.payload)), \(String(draft.nonce)), \(draft.signature),
                       last, last
                FROM clock
                ON CONFLICT (tx_id) DO NOTHING RETURNING block_time
            )
            SELECT block_time, pg_notify(\(Self.kasiaChannel), block_time::text) IS NULL FROM inserted
            """, logger: logger)
        var assigned: Int64?
        for (blockTime, _) in try rows.decode((Int64, Bool).self) { assigned = blockTime }
        if let blockTime = assigned {
            return .inserted(KasiaRecord(draft: draft, relayedAt: blockTime))
        }
        guard let existing = try await stored(txID: draft.txID, database, logger) else {
            throw ServerStoreError.corruptRow(table: "kasia_clock", reason: "row 1 is missing")
        }
        return .existing(existing)
    }

    public func kasiaRecord(txID: String) async throws -> KasiaRecord? {
        try await fetchKasia("SELECT \(unescaped: KasiaRecordColumns.list) FROM kasia_tx WHERE tx_id = \(txID)").first
    }

    public func kasiaRecords(_ query: KasiaIndexQuery, from blockTime: UnixMillis, limit: Int) async throws
        -> [KasiaRecord]
    {
        let parts = KasiaRecordColumns.condition(query)
        if parts.byReceiver {
            return try await fetchKasia(
                """
                SELECT \(unescaped: KasiaRecordColumns.list) FROM kasia_tx
                WHERE kind = \(parts.kind.rawValue) AND receiver = \(parts.address) AND block_time >= \(blockTime.rawValue)
                    AND octet_length(payload) <= \(KasiaPayloadLimit.bytes)
                ORDER BY block_time, tx_id LIMIT \(limit)
                """)
        }
        return try await fetchKasia(
            """
            SELECT \(unescaped: KasiaRecordColumns.list) FROM kasia_tx
            WHERE kind = \(parts.kind.rawValue) AND sender = \(parts.address) AND tag = \(parts.tag)
                AND block_time >= \(blockTime.rawValue) AND octet_length(payload) <= \(KasiaPayloadLimit.bytes)
            ORDER BY block_time, tx_id LIMIT \(limit)
            """)
    }

    public func kasiaRecords(after position: Int64, watching watch: KasiaWatch?, limit: Int) async throws
        -> [KasiaRecord]
    {
        guard let watch else {
            return try await fetchKasia(
                """
                SELECT \(unescaped: KasiaRecordColumns.list) FROM kasia_tx
                WHERE seq > \(position) AND octet_length(payload) <= \(KasiaPayloadLimit.bytes)
                ORDER BY seq LIMIT \(limit)
                """)
        }
        let addresses = Array(watch.addresses)
        let aliases = Array(watch.aliasHexes)
        return try await fetchKasia(
            """
            SELECT \(unescaped: KasiaRecordColumns.list) FROM kasia_tx
            WHERE seq > \(position) AND octet_length(payload) <= \(KasiaPayloadLimit.bytes)
                AND (sender = ANY(\(addresses)) OR receiver = ANY(\(addresses))
                OR (kind = \(KasiaRecordKind.contextualMessage.rawValue) AND tag = ANY(\(aliases))))
            ORDER BY seq LIMIT \(limit)
            """)
    }

    public func latestKasiaPosition() async throws -> Int64? {
        let rows = try await database.query("SELECT MAX(seq) FROM kasia_tx", logger: logger)
        for last in try rows.decode(Int64?.self) { return last }
        return nil
    }

    public func kasiaCounts() async throws -> KasiaCounts {
        let rows = try await database.query("SELECT kind, COUNT(*) FROM kasia_tx GROUP BY kind", logger: logger)
        var counts: [KasiaRecordKind: Int64] = [:]
        for (kind, count) in try rows.decode((String, Int64).self) {
            if let kind = KasiaRecordKind(rawValue: kind) { counts[kind] = count }
        }
        return KasiaCounts(byKind: counts)
    }

    public func listenForKasiaCommits(_ onCommit: @escaping @Sendable () async -> Void) async throws {
        try await database.holdingConnection { connection in
            try await connection.listen(on: Self.kasiaChannel) { notifications in
                // Catch up once LISTEN is in place: rows committed while it was being set up.
                await onCommit()
                for try await _ in notifications { await onCommit() }
            }
        }
    }

    private func fetchKasia(_ query: PostgresQuery) async throws -> [KasiaRecord] {
        return try await Self.records(database.query(query, logger: logger))
    }

    /// The stored row of `txID`, if any.
    static func stored(txID: String, _ database: PostgresDatabase, _ logger: Logger) async throws -> KasiaRecord? {
        try await records(
            database.query(
                "SELECT \(unescaped: KasiaRecordColumns.list) FROM kasia_tx WHERE tx_id = \(txID)", logger: logger)
        ).first
    }

    /// Decodes `kasia_tx` rows selected with ``KasiaRecordColumns/list``.
    static func records(_ rows: [PostgresRow]) throws -> [KasiaRecord] {
        var records: [KasiaRecord] = []
        for (
            txID, blockTime, kind, sender, receiver, amount, tag, body, payload, nonce, signature, seq, block, score
        )
            in try rows.decode(
                (
                    String, Int64, String, String, String?, Int64, String, Data, Data, String, String, Int64, String?,
                    Int64?
                ).self)
        {
            guard let recordKind = KasiaRecordKind(rawValue: kind) else {
                throw ServerStoreError.corruptRow(table: "kasia_tx", reason: "tx \(txID): unknown kind '\(kind)'")
            }
            records.append(
                try KasiaRecordColumns.record(
                    txID: txID, blockTime: blockTime, kind: recordKind, sender: sender, receiver: receiver,
                    amount: amount,
                    tag: tag, body: Array(body), payload: Array(payload), nonce: nonce, signature: signature,
                    position: seq, acceptingBlock: block, acceptingDaaScore: score))
        }
        return records
    }
}
