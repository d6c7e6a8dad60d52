import Foundation
import Logging
import NIOCore
import PostgresNIO
public import TandemAPI
public import TandemBasics

/// Issue 12 on PostgreSQL. Every sync write starts by locking `sync_clock`'s row
/// (`SELECT … FOR UPDATE`) and holds it until COMMIT, so instances assign feed positions one
/// transaction at a time, in commit order: a reader never sees seq n+1 before seq n commits.
extension PostgresServerStore {
    /// Queued in process: a write waiting here for the clock's row lock would hold a pooled
    /// connection and run down the deadline (`SyncWriteGate`).
    public var queuesSyncWrites: Bool { true }

    public func registerDeviceKey(publicKey: String, userID: AccountID, now: UnixMillis) async throws
        -> DeviceKeyOutcome
    {
        return try await syncTransaction { connection in
            try await Self.lockClock(connection, logger, waitingAtMost: Self.clockLockTimeout)
            let stored = try await Self.deviceKeys(
                connection, "SELECT * FROM device_key WHERE public_key = \(publicKey)", logger
            ).first
            let plan = DeviceKeyPlanner.register(publicKey: publicKey, account: userID, now: now, stored: stored)
            if let key = plan.insert {
                try await connection.query(
                    """
                    INSERT INTO device_key (public_key, user_id, created_at)
                    VALUES (\(key.publicKey), \(key.userID.rawValue), \(key.createdAt.rawValue))
                    """, logger: logger)
            }
            return plan.outcome
        }
    }

    public func deviceKeys(userID: AccountID) async throws -> [StoredDeviceKey] {
        return try await database.withConnection { connection in
            try await Self.deviceKeys(
                connection,
                "SELECT * FROM device_key WHERE user_id = \(userID.rawValue) ORDER BY created_at, public_key", logger)
        }
    }

    public func revokeDeviceKey(publicKey: String, userID: AccountID, now: UnixMillis) async throws -> StoredDeviceKey?
    {
        return try await syncTransaction { connection in
            try await Self.lockClock(connection, logger, waitingAtMost: Self.clockLockTimeout)
            let stored = try await Self.deviceKeys(
                connection, "SELECT * FROM device_key WHERE public_key = \(publicKey)", logger
            ).first
            let plan = DeviceKeyPlanner.revoke(account: userID, now: now, stored: stored)
            if let revokeAt = plan.revokeAt {
                try await connection.query(
                    "UPDATE device_key SET revoked_at = \(revokeAt.rawValue) WHERE public_key = \(publicKey)",
                    logger: logger)
            }
            return plan.answer
        }
    }

    public func redoNodes(userID: AccountID, after seq: Int64, limit: Int) async throws -> [StoredRedoNode] {
        let rows = try await database.query(
            """
            SELECT f.seq, n.json FROM redo_feed f JOIN redo_node n ON n.id = f.node_id
            WHERE f.user_id = \(userID.rawValue) AND f.seq > \(seq) ORDER BY f.seq LIMIT \(Int64(limit))
            """, logger: logger)
        var nodes: [StoredRedoNode] = []
        for (position, json) in try rows.decode((Int64, Data).self) {
            nodes.append(StoredRedoNode(seq: position, json: Array(json)))
        }
        return nodes
    }

    /// Compare-and-swap in a fixed number of round trips, whatever the number of records
    /// (issue 12 "Figures": one query per record took 15.7 s for 10,000 records): the stored
    /// versions of every named record in one `= ANY` read under the clock's lock, the conflicts
    /// decided in memory in request order (as the SQLite store does), then one
    /// `INSERT … SELECT FROM UNNEST … ON CONFLICT DO UPDATE` for all of them.
    public func putSealedRecords(
        _ collection: SealedRecordCollection, _ drafts: [SealedRecordDraft], userID: AccountID, quota: SyncQuota
    ) async throws -> SealedRecordPutOutcome {
        let user = userID.rawValue
        let table = collection.table
        return try await syncTransaction { connection in
            let last = try await Self.lockClock(connection, logger, waitingAtMost: Self.clockLockTimeout)
            var stored: [String: Int64] = [:]
            var storedBytes: [String: Int64] = [:]
            let rows = try await connection.query(
                """
                SELECT record_id, version, octet_length(box)::bigint FROM \(unescaped: table)
                WHERE user_id = \(user) AND record_id = ANY(\(drafts.map(\.id))::text[])
                """, logger: logger)
            for try await (id, version, size) in rows.decode((String, Int64, Int64).self) {
                stored[id] = version
                storedBytes[id] = size
            }
            let plan = SealedRecordPutPlan.plan(drafts, stored: stored, clock: last)
            let change = SealedRecordPutPlan.usageChange(plan.writes, storedBytes: storedBytes)
            try await Self.count(
                connection, logger, user, collection.rawValue, rows: change.rows, bytes: change.bytes, quota: quota)
            if !plan.writes.isEmpty {
                try await connection.query(
                    """
                    INSERT INTO \(unescaped: table) (user_id, record_id, version, box, seq)
                    SELECT \(user), id, version, box, seq
                    FROM UNNEST(\(plan.writes.map(\.id))::text[], \(plan.writes.map(\.version))::bigint[],
                                \(plan.writes.map { ByteBuffer(bytes: $0.box) })::bytea[], \(plan.writes.map(\.position))::bigint[])
                        AS record_row(id, version, box, seq)
                    ON CONFLICT (user_id, record_id) DO UPDATE
                    SET version = excluded.version, box = excluded.box, seq = excluded.seq
                    """, logger: logger)
                try await connection.query("UPDATE sync_clock SET last = \(plan.clock) WHERE id = 1", logger: logger)
            }
            return plan.outcome
        }
    }

    public func sealedRecords(
        _ collection: SealedRecordCollection, userID: AccountID, after seq: Int64, limit: Int
    ) async throws -> [StoredSealedRecord] {
        let rows = try await database.query(
            """
            SELECT seq, record_id, box, version FROM \(unescaped: collection.table)
            WHERE user_id = \(userID.rawValue) AND seq > \(seq) ORDER BY seq LIMIT \(Int64(limit))
            """, logger: logger)
        var records: [StoredSealedRecord] = []
        for (position, id, box, version) in try rows.decode((Int64, String, Data, Int64).self) {
            records.append(StoredSealedRecord(seq: position, id: id, box: box, version: version))
        }
        return records
    }

    /// How long a sync write waits in PostgreSQL for the clock's row lock before it is refused
    /// as busy (`ServerStoreError.busy`, HTTP 429 `SYNC_BUSY`) rather than timed out as an
    /// unavailable database: the store deadline answers 503 after `operationTimeout` (5 s), and a
    /// lock wait is contention, not unavailability. Inside one process `SyncWriteGate` queues
    /// the sync writes before they take a connection, so this wait only happens between server
    /// instances; 2 s leaves the write 3 s of the deadline.
    static let clockLockTimeout = "2s"

    /// The transaction of a sync write: a lock wait past `lock_timeout` (SQLSTATE 55P03) comes out
    /// as `ServerStoreError.busy`; a `ServerStoreError` the body threw as itself; every other
    /// error as it was.
    func syncTransaction<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        do {
            return try await database.withTransaction(logger: logger, body)
        } catch {
            let inner = (error as? PostgresTransactionError).flatMap { $0.closureError } ?? error
            if let psql = inner as? PSQLError, psql.serverInfo?[.sqlState] == "55P03" {
                throw ServerStoreError.busy("the sync clock stayed locked for \(Self.clockLockTimeout)")
            }
            // The store's own refusals (a quota) come out as they were thrown, as on SQLite.
            if let refusal = inner as? ServerStoreError { throw refusal }
            throw error
        }
    }

    /// Locks the counter row until COMMIT and returns its value; with `waitingAtMost`, the wait
    /// for the lock is bounded by `lock_timeout` for this transaction only.
    @discardableResult
    static func lockClock(_ connection: PostgresConnection, _ logger: Logger, waitingAtMost timeout: String? = nil)
        async throws -> Int64
    {
        if let timeout {
            try await connection.query("SELECT set_config('lock_timeout', \(timeout), true)", logger: logger)
        }
        let rows = try await connection.query("SELECT last FROM sync_clock WHERE id = 1 FOR UPDATE", logger: logger)
        for try await last in rows.decode(Int64.self) { return last }
        throw ServerStoreError.corruptRow(table: "sync_clock", reason: "row 1 is missing")
    }

    public func syncUsage(userID: AccountID, collection: String) async throws -> (rows: Int64, bytes: Int64) {
        let logger = logger
        return try await database.withConnection { connection in
            let usage = try await Self.usage(connection, logger, userID.rawValue, collection)
            return (usage.rows, usage.bytes)
        }
    }

    private static func usage(_ connection: PostgresConnection, _ logger: Logger, _ user: String, _ collection: String)
        async throws -> SyncUsage
    {
        let rows = try await connection.query(
            "SELECT row_count, byte_count FROM sync_usage WHERE user_id = \(user) AND collection = \(collection)",
            logger: logger)
        for try await (count, bytes) in rows.decode((Int64, Int64).self) { return SyncUsage(rows: count, bytes: bytes) }
        return SyncUsage(rows: 0, bytes: 0)
    }

    /// Checks the write against `quota` and records it in `sync_usage`, in the write's
    /// transaction (under the sync clock's lock, so no other write of the account races it).
    static func count(
        _ connection: PostgresConnection, _ logger: Logger, _ user: String, _ collection: String, rows: Int64,
        bytes: Int64, quota: SyncQuota
    ) async throws {
        guard rows != 0 || bytes != 0 else { return }
        try await usage(connection, logger, user, collection).check(
            adding: rows, bytes: bytes, quota: quota, collection: collection)
        try await connection.query(
            """
            INSERT INTO sync_usage (user_id, collection, row_count, byte_count)
            VALUES (\(user), \(collection), \(rows), \(bytes))
            ON CONFLICT (user_id, collection) DO UPDATE
            SET row_count = sync_usage.row_count + excluded.row_count,
                byte_count = sync_usage.byte_count + excluded.byte_count
            """, logger: logger)
    }

    static func readers(_ connection: PostgresConnection, _ taskID: String, _ logger: Logger) async throws
        -> Set<String>
    {
        var readers: Set<String> = []
        let rows = try await connection.query(
            "SELECT user_id FROM redo_task_access WHERE task_id = \(taskID)", logger: logger)
        for try await user in rows.decode(String.self) { readers.insert(user) }
        return readers
    }

    private static func deviceKeys(_ connection: PostgresConnection, _ query: PostgresQuery, _ logger: Logger)
        async throws -> [StoredDeviceKey]
    {
        var keys: [StoredDeviceKey] = []
        let rows = try await connection.query(query, logger: logger)
        for try await (publicKey, user, created, revoked) in rows.decode((String, String, Int64, Int64?).self) {
            keys.append(
                StoredDeviceKey(
                    publicKey: publicKey, userID: AccountID(user), createdAt: UnixMillis(created),
                    revokedAt: revoked.map(UnixMillis.init)))
        }
        return keys
    }
}
