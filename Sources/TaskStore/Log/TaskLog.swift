import CanonicalJSON
import Foundation
public import GRDB
public import RedoProtocol

/// The local change log (spec §11.3): every node verbatim in SQLite, keyed by its id.
///
/// Appending is one INSERT, offline, idempotent by id. State is never stored: `replay()` reads
/// every node, validates it again (spec §6.4 "after reading"), and replays the lot.
public struct TaskLog: Sendable {
    private let writer: any DatabaseWriter

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
            rows.append((node.id.description, node.taskID.description, node.lamport, node.wall.description,
                         try CanonicalJSON.canonicalBytes(of: .object(node.json))))
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
        try writer.read { db in
            try Data.fetchAll(db, sql: "SELECT json FROM node ORDER BY seq").map { Array($0) }
        }
    }

    /// The stored nodes of one task, in append order, as JSON texts.
    public func storedTexts(of task: TaskID) throws -> [[UInt8]] {
        try writer.read { db in
            try Data.fetchAll(db, sql: "SELECT json FROM node WHERE taskId = ? ORDER BY seq",
                              arguments: [task.description]).map { Array($0) }
        }
    }

    /// Validates every stored node and replays them (spec §7). A stored text that no longer
    /// parses is reported as rejected rather than silently dropped.
    public func replay(validator: NodeValidator = NodeValidator()) throws -> ReplayResult {
        try Self.replay(texts: storedTexts(), validator: validator)
    }

    /// The nodes that pass validation, for producers that need parents' lamports.
    public func validNodes(validator: NodeValidator = NodeValidator()) throws -> [RedoNode] {
        try storedTexts().compactMap { try? validator.validate(bytes: $0) }
    }

    static func replay(texts: [[UInt8]], validator: NodeValidator) -> ReplayResult {
        var nodes: [RedoNode] = []
        var rejections: [NodeVerdict] = []
        for text in texts {
            do {
                nodes.append(try validator.validate(bytes: text))
            } catch {
                let id = (try? CanonicalJSON.parse(text))?["id"]?.stringValue ?? ""
                rejections.append(NodeVerdict(id: id, code: error.code, detail: error.detail))
            }
        }
        return Replayer.replay(nodes, standaloneRejections: rejections)
    }
}
