import CanonicalJSON
import Foundation
public import GRDB
public import RedoProtocol

/// The local change log (spec §11.3): every node verbatim in SQLite, keyed by its id.
///
/// Appending is one INSERT, offline, idempotent by id. State is never stored: `replay()` reads
/// every node, validates it again (spec §6.4 "after reading"), and replays the lot.
public struct TaskLog: Sendable {
    let writer: any DatabaseWriter

    /// Opens (creating if needed) the log in a SQLite file.
    public init(path: String) throws {
        try self.init(writer: DatabaseQueue(path: path))
    }

    /// Wraps any GRDB writer (an in-memory `DatabaseQueue()` in tests).
    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Stores nodes in one transaction; a node already present (same id) is left as it is.
    public func append(_ nodes: [RedoNode]) throws {
        var rows: [(String, String, Int64, String, [UInt8])] = []
        for node in nodes {
            rows.append(
                (
                    node.id.description, node.taskID.description, node.lamport, node.wall.description,
                    try CanonicalJSON.canonicalBytes(of: .object(node.json))
                ))
        }
        try writer.write { db in
            for (id, taskID, lamport, wall, json) in rows {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO node (id, taskId, lamport, wall, json) VALUES (?, ?, ?, ?, ?)",
                    arguments: [id, taskID, lamport, wall, Data(json)])
            }
        }
    }

    /// How many nodes the log holds.
    public func count() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM node") ?? 0 }
    }

    /// Every stored node's JSON text, in append order.
    public func storedTexts() throws -> [[UInt8]] {
        try storedRows().map(\.json)
    }

    /// The stored nodes of one task, in append order, as JSON texts.
    public func storedTexts(of task: TaskID) throws -> [[UInt8]] {
        try writer.read { db in
            try Data.fetchAll(
                db, sql: "SELECT json FROM node WHERE taskId = ? ORDER BY seq",
                arguments: [task.description]
            ).map { Array($0) }
        }
    }

    /// Validates every stored node and replays them (spec §7). Only validated nodes are ever
    /// appended, so a stored node that no longer validates was damaged on disk: that is
    /// ``TaskStoreError/corruptNode(id:reason:)``, never a node silently left out.
    public func replay(validator: NodeValidator = NodeValidator()) throws -> ReplayResult {
        Replayer.replay(try validNodes(validator: validator))
    }

    /// Every stored node, validated again, in append order (for producers that need parents'
    /// lamports). Throws ``TaskStoreError/corruptNode(id:reason:)`` for the first damaged one.
    public func validNodes(validator: NodeValidator = NodeValidator()) throws -> [RedoNode] {
        try storedRows().map { row in
            do { return try validator.validate(bytes: row.json) } catch {
                throw TaskStoreError.corruptNode(id: row.id, reason: String(describing: error))
            }
        }
    }

    /// The `id` and `json` columns in append order; a row whose columns are not an id text and a
    /// JSON blob is ``TaskStoreError/corruptNode(id:reason:)``.
    private func storedRows() throws -> [(id: String, json: [UInt8])] {
        try writer.read { db in
            try Row.fetchAll(db, sql: "SELECT seq, id, json FROM node ORDER BY seq").map { row in
                let seq = (try? row.decode(Int64.self, atIndex: 0)).map(String.init) ?? "?"
                guard let id = try? row.decode(String.self, atIndex: 1) else {
                    throw TaskStoreError.corruptNode(id: "at seq \(seq)", reason: "the id column is not text")
                }
                guard let json = try? row.decode(Data.self, atIndex: 2) else {
                    throw TaskStoreError.corruptNode(id: id, reason: "the json column is not a blob")
                }
                return (id, Array(json))
            }
        }
    }
}
