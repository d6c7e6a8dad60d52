import Foundation
import GRDB
import RedoProtocol

/// The `projection` table: the replayed state and the log generation it was built at
/// (issue 12 item 6). Any change to `node` bumps the generation (triggers, v2 migration), so a
/// projection older than the log is never used.
extension TaskLog {
    /// The log's generation; nil when its row is missing (then no projection is ever current).
    static func generation(_ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT value FROM log_generation WHERE id = 1")
    }

    /// The stored projection when it was built at the current generation and decodes.
    static func currentProjection(_ db: Database) throws -> TaskProjection? {
        guard let generation = try generation(db),
            let row = try Row.fetchOne(db, sql: "SELECT generation, state FROM projection WHERE id = 1"),
            (try? row.decode(Int64.self, atIndex: 0)) == generation,
            let bytes = try? row.decode(Data.self, atIndex: 1)
        else { return nil }
        return TaskProjection(decoding: Array(bytes))
    }

    /// The current projection, or a full replay of the log kept as the new one. Unverified rows
    /// (from v1, or whose bytes were changed by hand) get every check and, if they pass, are
    /// marked verified.
    static func projection(_ db: Database) throws -> TaskProjection {
        if let current = try currentProjection(db) { return current }
        let rows = try storedRows(db, sql: allRowsInOrder)
        let validator = NodeValidator()
        var nodes: [RedoNode] = []
        nodes.reserveCapacity(rows.count)
        for row in rows {
            nodes.append(try node(row, validator))
            if !row.verified {
                try db.execute(sql: "UPDATE node SET verified = 1 WHERE id = ?", arguments: [row.id])
            }
        }
        let projection = TaskProjection(replaying: nodes)
        try save(projection, db)
        return projection
    }

    /// Every stored node of `tasks`, plus every stored node they name as a parent (its presence
    /// and task decide a child's verdict, spec §7.2 step 2).
    static func replayInput(_ db: Database, tasks: Set<TaskID>) throws -> [RedoNode] {
        let validator = NodeValidator()
        var nodes: [RedoNode] = []
        for task in tasks.sorted() {
            let rows = try storedRows(db, sql: allRows + " WHERE taskId = ? ORDER BY seq", [task.description])
            for row in rows { nodes.append(try node(row, validator)) }
        }
        let present = Set(nodes.map(\.id))
        var foreign: Set<NodeID> = []
        for node in nodes { foreign.formUnion(node.parents.filter { !present.contains($0) }) }
        for parent in foreign.sorted() {
            let rows = try storedRows(db, sql: allRows + " WHERE id = ?", [parent.description])
            for row in rows { nodes.append(try node(row, validator)) }
        }
        return nodes
    }

    static func save(_ projection: TaskProjection, _ db: Database) throws {
        guard let generation = try generation(db) else { return }
        try db.execute(
            sql: "INSERT OR REPLACE INTO projection (id, generation, state) VALUES (1, ?, ?)",
            arguments: [generation, Data(try projection.encoded())])
    }
}
