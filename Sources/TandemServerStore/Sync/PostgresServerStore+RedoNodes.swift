import Foundation
import Logging
import NIOCore
import PostgresNIO
import TandemAPI
public import TandemBasics

/// A node push on PostgreSQL in a fixed number of round trips, whatever its size (issue 12
/// "Figures": one query per node made the PostgreSQL push five times slower than SQLite's).
///
/// Under the sync clock's lock (so no other writer moves the rows read here): one query reads
/// the access lists of every task the push names, one the task of every node id and parent it
/// names; `RedoPushPlanner` decides in memory, with the same rules as the SQLite store; and the
/// planned rows go in with one `INSERT … SELECT … FROM UNNEST` per table.
extension PostgresServerStore {
    public func appendRedoNodes(_ drafts: [RedoNodeDraft], userID: AccountID, now: UnixMillis, quota: SyncQuota)
        async throws -> [RedoNodeOutcome]
    {
        let user = userID.rawValue
        return try await syncTransaction { connection in
            let clock = try await Self.lockClock(connection, logger, waitingAtMost: Self.clockLockTimeout)
            let facts = RedoPushFacts(
                readers: try await Self.readers(ofTasks: RedoPushFacts.taskIDs(of: drafts), connection, logger),
                nodeTasks: try await Self.tasks(ofNodes: RedoPushFacts.nodeIDs(of: drafts), connection, logger))
            let plan = RedoPushPlanner.plan(drafts, pusher: user, facts: facts, clock: clock)
            let bytes = plan.nodes.reduce(Int64(0)) { $0 + Int64($1.json.count) }
            try await Self.count(
                connection, logger, user, SyncUsage.nodes, rows: Int64(plan.nodes.count), bytes: bytes, quota: quota)
            try await Self.write(plan, connection, user: user, now: now.rawValue, logger: logger)
            return plan.outcomes
        }
    }

    /// The access list of each task in `taskIDs` that has one.
    private static func readers(ofTasks taskIDs: [String], _ connection: PostgresConnection, _ logger: Logger)
        async throws -> [String: Set<String>]
    {
        var readers: [String: Set<String>] = [:]
        let rows = try await connection.query(
            "SELECT task_id, user_id FROM redo_task_access WHERE task_id = ANY(\(taskIDs)::text[])", logger: logger)
        for try await (task, user) in rows.decode((String, String).self) { readers[task, default: []].insert(user) }
        return readers
    }

    /// The task of each node in `nodeIDs` that is stored.
    private static func tasks(ofNodes nodeIDs: [String], _ connection: PostgresConnection, _ logger: Logger)
        async throws -> [String: String]
    {
        var tasks: [String: String] = [:]
        let rows = try await connection.query(
            "SELECT id, task_id FROM redo_node WHERE id = ANY(\(nodeIDs)::text[])", logger: logger)
        for try await (id, task) in rows.decode((String, String).self) { tasks[id] = task }
        return tasks
    }

    /// The plan's rows, column by column, one `UNNEST` insert per table, then the clock.
    private static func write(
        _ plan: RedoPushPlan, _ connection: PostgresConnection, user: String, now: Int64, logger: Logger
    ) async throws {
        if !plan.grants.isEmpty {
            try await connection.query(
                """
                INSERT INTO redo_task_access (task_id, user_id, granted_at)
                SELECT task, \(user), \(now) FROM UNNEST(\(plan.grants)::text[]) AS grant_row(task)
                """, logger: logger)
        }
        if !plan.nodes.isEmpty {
            let ids = plan.nodes.map(\.id)
            let tasks = plan.nodes.map(\.taskID)
            let positions = plan.nodes.map(\.position)
            let texts = plan.nodes.map { ByteBuffer(bytes: $0.json) }
            let keys = plan.nodes.map(\.authorKey)
            try await connection.query(
                """
                INSERT INTO redo_node (id, task_id, pos, json, author_key, pushed_by, received_at)
                SELECT id, task, pos, json, author_key, \(user), \(now)
                FROM UNNEST(\(ids)::text[], \(tasks)::text[], \(positions)::bigint[],
                            \(texts)::bytea[], \(keys)::text[]) AS node_row(id, task, pos, json, author_key)
                """, logger: logger)
        }
        if !plan.feed.isEmpty {
            let positions = plan.feed.map(\.position)
            let users = plan.feed.map(\.userID)
            let nodes = plan.feed.map(\.nodeID)
            try await connection.query(
                """
                INSERT INTO redo_feed (seq, user_id, node_id)
                SELECT * FROM UNNEST(\(positions)::bigint[], \(users)::text[], \(nodes)::text[])
                """, logger: logger)
        }
        try await connection.query("UPDATE sync_clock SET last = \(plan.clock) WHERE id = 1", logger: logger)
    }
}
