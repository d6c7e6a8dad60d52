import Foundation
import Logging
import NIOCore
import PostgresNIO
public import TandemAPI
public import TandemBasics

/// A node push on PostgreSQL in a fixed number of round trips, whatever its size (issue 12
/// "Figures": one query per node made the PostgreSQL push five times slower than SQLite's).
///
/// Under the sync clock's lock (so no other writer moves the rows read here): one query reads
/// the access lists of every task the push names, one the task of every node id and parent it
/// names; the contextual checks then run in memory, in push order, exactly as the SQLite store
/// runs them row by row (a node accepted earlier in the push counts as stored for the ones after
/// it); and the accepted rows go in with one `INSERT … SELECT … FROM UNNEST` per table.
extension PostgresServerStore {
    public func appendRedoNodes(_ drafts: [RedoNodeDraft], userID: UserID, now: UnixMillis) async throws
        -> [RedoNodeOutcome]
    {
        try await migrate()
        let user = userID.rawValue
        return try await client.withTransaction(logger: logger) { connection in
            var plan = PushPlan(clock: try await Self.lockClock(connection, logger))
            var access = try await Self.readers(ofTasks: Array(Set(drafts.map(\.taskID))), connection, logger)
            var nodeTask = try await Self.tasks(
                ofNodes: Array(Set(drafts.flatMap { [$0.id] + $0.parents })), connection, logger)
            var outcomes: [RedoNodeOutcome] = []
            outcomes.reserveCapacity(drafts.count)
            for draft in drafts {
                let known = access[draft.taskID] ?? []
                if !known.isEmpty && !known.contains(user) {
                    outcomes.append(.rejected(code: RedoSyncCode.taskForbidden))
                    continue
                }
                if nodeTask[draft.id] != nil {
                    outcomes.append(.duplicate)
                    continue
                }
                var granted = known
                if draft.isCreate {
                    guard known.isEmpty else {
                        outcomes.append(.rejected(code: "E_DUPLICATE_CREATE"))
                        continue
                    }
                    plan.grants.append(draft.taskID)
                    granted = [user]
                } else {
                    var parentsStored = !known.isEmpty
                    for parent in draft.parents where parentsStored { parentsStored = nodeTask[parent] == draft.taskID }
                    guard parentsStored else {
                        outcomes.append(.rejected(code: "E_PARENT_NOT_FOUND"))
                        continue
                    }
                }
                access[draft.taskID] = granted
                nodeTask[draft.id] = draft.taskID
                plan.add(draft, readers: granted.sorted())
                outcomes.append(.accepted)
            }
            try await plan.write(connection, user: user, now: now.rawValue, logger: logger)
            return outcomes
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
}

/// The rows one push adds, column by column, for the `UNNEST` inserts; feed positions and node
/// positions come from the sync clock in push order, as the row-by-row store assigns them.
private struct PushPlan {
    var clock: Int64
    var grants: [String] = []
    var nodeIDs: [String] = []
    var nodeTasks: [String] = []
    var nodePositions: [Int64] = []
    var nodeTexts: [ByteBuffer] = []
    var nodeKeys: [String] = []
    var feedPositions: [Int64] = []
    var feedUsers: [String] = []
    var feedNodes: [String] = []

    init(clock: Int64) { self.clock = clock }

    mutating func add(_ draft: RedoNodeDraft, readers: [String]) {
        clock += 1
        nodeIDs.append(draft.id)
        nodeTasks.append(draft.taskID)
        nodePositions.append(clock)
        nodeTexts.append(ByteBuffer(bytes: draft.json))
        nodeKeys.append(draft.authorKey)
        for reader in readers {
            clock += 1
            feedPositions.append(clock)
            feedUsers.append(reader)
            feedNodes.append(draft.id)
        }
    }

    func write(_ connection: PostgresConnection, user: String, now: Int64, logger: Logger) async throws {
        if !grants.isEmpty {
            try await connection.query(
                """
                INSERT INTO redo_task_access (task_id, user_id, granted_at)
                SELECT task, \(user), \(now) FROM UNNEST(\(grants)::text[]) AS grant_row(task)
                """, logger: logger)
        }
        if !nodeIDs.isEmpty {
            try await connection.query(
                """
                INSERT INTO redo_node (id, task_id, pos, json, author_key, pushed_by, received_at)
                SELECT id, task, pos, json, author_key, \(user), \(now)
                FROM UNNEST(\(nodeIDs)::text[], \(nodeTasks)::text[], \(nodePositions)::bigint[],
                            \(nodeTexts)::bytea[], \(nodeKeys)::text[]) AS node_row(id, task, pos, json, author_key)
                """, logger: logger)
        }
        if !feedPositions.isEmpty {
            try await connection.query(
                """
                INSERT INTO redo_feed (seq, user_id, node_id)
                SELECT * FROM UNNEST(\(feedPositions)::bigint[], \(feedUsers)::text[], \(feedNodes)::text[])
                """, logger: logger)
        }
        try await connection.query("UPDATE sync_clock SET last = \(clock) WHERE id = 1", logger: logger)
    }
}
