import Foundation
import GRDB
public import TandemAPI
public import TandemBasics

/// Issue 12 on SQLite. GRDB runs one write transaction at a time, so the counter read at the
/// start of a sync write and the rows written with it commit before any other writer reads it.
extension SQLiteServerStore {
    /// No queue in front: GRDB's writer orders the sync writes, and one waiting for it holds
    /// no connection and runs down no deadline (`SyncWriteGate`).
    public var queuesSyncWrites: Bool { false }

    public func registerDeviceKey(publicKey: String, userID: AccountID, now: UnixMillis) async throws
        -> DeviceKeyOutcome
    {
        try await database.write { db in
            let plan = DeviceKeyPlanner.register(
                publicKey: publicKey, account: userID, now: now, stored: try Self.deviceKey(db, publicKey))
            if let key = plan.insert {
                try db.execute(
                    sql: "INSERT INTO device_key (public_key, user_id, created_at) VALUES (?, ?, ?)",
                    arguments: [key.publicKey, key.userID.rawValue, key.createdAt.rawValue])
            }
            return plan.outcome
        }
    }

    public func deviceKeys(userID: AccountID) async throws -> [StoredDeviceKey] {
        try readNow { db in
            try Row.fetchAll(
                db.cachedStatement(sql: "SELECT * FROM device_key WHERE user_id = ? ORDER BY created_at, public_key"),
                arguments: [userID.rawValue]
            ).map(Self.deviceKey(row:))
        }
    }

    public func revokeDeviceKey(publicKey: String, userID: AccountID, now: UnixMillis) async throws -> StoredDeviceKey?
    {
        try await database.write { db in
            let plan = DeviceKeyPlanner.revoke(account: userID, now: now, stored: try Self.deviceKey(db, publicKey))
            if let revokeAt = plan.revokeAt {
                try db.execute(
                    sql: "UPDATE device_key SET revoked_at = ? WHERE public_key = ?",
                    arguments: [revokeAt.rawValue, publicKey])
            }
            return plan.answer
        }
    }

    public func appendRedoNodes(_ drafts: [RedoNodeDraft], userID: AccountID, now: UnixMillis, quota: SyncQuota)
        async throws -> [RedoNodeOutcome]
    {
        try await database.write { db in
            var clock = try SyncClock(db)
            let plan = RedoPushPlanner.plan(
                drafts, pusher: userID.rawValue, facts: try Self.pushFacts(db, drafts), clock: clock.last)
            let bytes = plan.nodes.reduce(Int64(0)) { $0 + Int64($1.json.count) }
            try Self.count(db, userID, SyncUsage.nodes, rows: Int64(plan.nodes.count), bytes: bytes, quota: quota)
            let grant = try db.cachedStatement(
                sql: "INSERT INTO redo_task_access (task_id, user_id, granted_at) VALUES (?, ?, ?)")
            for task in plan.grants { try grant.execute(arguments: [task, userID.rawValue, now.rawValue]) }
            let insertNode = try db.cachedStatement(
                sql: """
                    INSERT INTO redo_node (pos, id, task_id, json, author_key, pushed_by, received_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """)
            for node in plan.nodes {
                try insertNode.execute(arguments: [
                    node.position, node.id, node.taskID, Data(node.json), node.authorKey, userID.rawValue,
                    now.rawValue,
                ])
            }
            let insertFeed = try db.cachedStatement(sql: Self.insertFeedSQL)
            for row in plan.feed { try insertFeed.execute(arguments: [row.userID, row.position, row.nodePosition]) }
            clock.last = plan.clock
            try clock.save(db)
            return plan.outcomes
        }
    }

    /// A reader's feed row: its account, its feed position and the node's position (migration
    /// "v12-redo-integer-keys": the feed is keyed by account and position, and names its node by
    /// the node's rowid).
    static let insertFeedSQL = "INSERT INTO redo_feed (user_id, seq, node_pos) VALUES (?, ?, ?)"

    /// The access lists and stored node tasks a push names (`RedoPushFacts`), one cached
    /// statement per id: SQLite runs in-process, so a query costs no round trip.
    private static func pushFacts(_ db: Database, _ drafts: [RedoNodeDraft]) throws -> RedoPushFacts {
        var facts = RedoPushFacts()
        for task in RedoPushFacts.taskIDs(of: drafts) {
            let readers = try readers(db, taskID: task)
            if !readers.isEmpty { facts.readers[task] = readers }
        }
        let nodeTask = try db.cachedStatement(sql: "SELECT task_id FROM redo_node WHERE id = ?")
        for id in RedoPushFacts.nodeIDs(of: drafts) {
            if let task = try String.fetchOne(nodeTask, arguments: [id]) { facts.nodeTasks[id] = task }
        }
        return facts
    }

    public func redoNodes(userID: AccountID, after seq: Int64, limit: Int) async throws -> [StoredRedoNode] {
        try readNow { db in
            let statement = try db.cachedStatement(
                sql: """
                    SELECT f.seq, n.json FROM redo_feed f JOIN redo_node n ON n.pos = f.node_pos
                    WHERE f.user_id = ? AND f.seq > ? ORDER BY f.seq LIMIT ?
                    """)
            let rows = try Row.fetchCursor(statement, arguments: [userID.rawValue, seq, limit])
            var nodes: [StoredRedoNode] = []
            while let row = try rows.next() {
                let json: Data = row[1]
                nodes.append(StoredRedoNode(seq: row[0], json: Array(json)))
            }
            return nodes
        }
    }

    public func putSealedRecords(
        _ collection: SealedRecordCollection, _ drafts: [SealedRecordDraft], userID: AccountID, quota: SyncQuota
    ) async throws -> SealedRecordPutOutcome {
        let table = collection.table
        return try await database.write { db in
            let current = try db.cachedStatement(
                sql: "SELECT version, length(box) FROM \(table) WHERE user_id = ? AND record_id = ?")
            var stored: [String: Int64] = [:]
            var storedBytes: [String: Int64] = [:]
            for draft in drafts where stored[draft.id] == nil {
                if let row = try Row.fetchOne(current, arguments: [userID.rawValue, draft.id]) {
                    stored[draft.id] = row[0]
                    storedBytes[draft.id] = row[1]
                }
            }
            var clock = try SyncClock(db)
            let plan = SealedRecordPutPlan.plan(drafts, stored: stored, clock: clock.last)
            let change = SealedRecordPutPlan.usageChange(plan.writes, storedBytes: storedBytes)
            try Self.count(db, userID, collection.rawValue, rows: change.rows, bytes: change.bytes, quota: quota)
            let upsert = try db.cachedStatement(
                sql: """
                    INSERT INTO \(table) (user_id, record_id, version, box, seq) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (user_id, record_id) DO UPDATE
                    SET version = excluded.version, box = excluded.box, seq = excluded.seq
                    """)
            for write in plan.writes {
                try upsert.execute(arguments: [userID.rawValue, write.id, write.version, write.box, write.position])
            }
            guard !plan.writes.isEmpty else { return plan.outcome }
            clock.last = plan.clock
            try clock.save(db)
            return plan.outcome
        }
    }

    public func sealedRecords(
        _ collection: SealedRecordCollection, userID: AccountID, after seq: Int64, limit: Int
    ) async throws -> [StoredSealedRecord] {
        try readNow { db in
            try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT seq, record_id, box, version FROM \(collection.table)
                        WHERE user_id = ? AND seq > ? ORDER BY seq LIMIT ?
                        """),
                arguments: [userID.rawValue, seq, limit]
            ).map { row in
                StoredSealedRecord(seq: row[0], id: row[1], box: row[2], version: row[3])
            }
        }
    }

    public func syncUsage(userID: AccountID, collection: String) async throws -> (rows: Int64, bytes: Int64) {
        try readNow { db in
            let usage = try Self.usage(db, userID, collection)
            return (usage.rows, usage.bytes)
        }
    }

    private static func usage(_ db: Database, _ userID: AccountID, _ collection: String) throws -> SyncUsage {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT row_count, byte_count FROM sync_usage WHERE user_id = ? AND collection = ?"),
            arguments: [userID.rawValue, collection])
        return SyncUsage(rows: row?[0] ?? 0, bytes: row?[1] ?? 0)
    }

    /// Checks the write against `quota` and records it in `sync_usage`, in the write's transaction.
    private static func count(
        _ db: Database, _ userID: AccountID, _ collection: String, rows: Int64, bytes: Int64, quota: SyncQuota
    ) throws {
        guard rows != 0 || bytes != 0 else { return }
        try usage(db, userID, collection).check(adding: rows, bytes: bytes, quota: quota, collection: collection)
        try db.cachedStatement(
            sql: """
                INSERT INTO sync_usage (user_id, collection, row_count, byte_count) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id, collection) DO UPDATE
                SET row_count = sync_usage.row_count + excluded.row_count,
                    byte_count = sync_usage.byte_count + excluded.byte_count
                """
        ).execute(arguments: [userID.rawValue, collection, rows, bytes])
    }

    static func readers(_ db: Database, taskID: String) throws -> Set<String> {
        Set(
            try String.fetchAll(
                db.cachedStatement(sql: "SELECT user_id FROM redo_task_access WHERE task_id = ?"), arguments: [taskID]))
    }

    private static func deviceKey(_ db: Database, _ publicKey: String) throws -> StoredDeviceKey? {
        try Row.fetchOne(db, sql: "SELECT * FROM device_key WHERE public_key = ?", arguments: [publicKey])
            .map(deviceKey(row:))
    }

    private static func deviceKey(row: Row) -> StoredDeviceKey {
        let revoked: Int64? = row["revoked_at"]
        return StoredDeviceKey(
            publicKey: row["public_key"], userID: AccountID(row["user_id"]),
            createdAt: UnixMillis(row["created_at"] as Int64), revokedAt: revoked.map(UnixMillis.init))
    }
}

/// The sync counter inside one write transaction: read once, advanced in memory, saved once.
struct SyncClock {
    var last: Int64

    init(_ db: Database) throws {
        guard let value = try Int64.fetchOne(db, sql: "SELECT last FROM sync_clock WHERE id = 1") else {
            throw ServerStoreError.corruptRow(table: "sync_clock", reason: "row 1 is missing")
        }
        last = value
    }

    mutating func next() -> Int64 {
        last += 1
        return last
    }

    func save(_ db: Database) throws {
        try db.execute(sql: "UPDATE sync_clock SET last = ? WHERE id = 1", arguments: [last])
    }
}
