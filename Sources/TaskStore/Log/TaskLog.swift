import Foundation
public import GRDB
public import RedoProtocol

/// The local change log (spec §11.3): every node verbatim in SQLite, keyed by its id.
///
/// Appending is one transaction, offline, idempotent by id. A node is verified in full once, when
/// it is stored, and marked so (issue 12 item 6, seed 004 §12): reading it back checks its
/// structure and content id but not its signature again. The replayed state is kept as a
/// projection, updated in the same transaction as each append and valid only for the log
/// generation it was built at, so it always equals a fresh full replay (spec §7).
public struct TaskLog: Sendable {
    let writer: any DatabaseWriter

    /// Opens (creating if needed) the log in a SQLite file, in WAL mode with `synchronous =
    /// NORMAL`, as the contacts store is: a commit is atomic and survives a crash of the app; only
    /// a power loss may drop the last commits, never leave half of one. A rollback-journal commit
    /// waited for four fsyncs, most of a `tandem tasks add` (issue 12 item 6: < 50 ms).
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        // `tandem tasks sync` beside `tandem tasks add`: a writer waits for the other's
        // transaction instead of failing with SQLITE_BUSY.
        configuration.busyMode = .timeout(5)
        try self.init(writer: DatabasePool(path: path, configuration: configuration))
    }

    /// Wraps any GRDB writer (an in-memory `DatabaseQueue()` in tests).
    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Stores nodes in one transaction; a node already present (same id) is left as it is. Every
    /// `RedoNode` passed §6.2 when it was made, so rows are stored as verified.
    public func append(_ nodes: [RedoNode]) throws {
        try appendReturningTasks(nodes)
    }

    /// How many nodes the log holds.
    public func count() throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM node") ?? 0 }
    }

    /// Every stored node's JSON text, in append order.
    public func storedTexts() throws -> [[UInt8]] {
        try writer.read { db in try Self.storedRows(db, sql: Self.allRowsInOrder) }.map(\.json)
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

    /// The replayed state of the whole log: the projection when it is current for the log's
    /// generation, otherwise a full replay that is then kept. Equal to a fresh full replay.
    /// A stored node that no longer validates is ``TaskStoreError/corruptNode(id:reason:)``.
    public func replay() throws -> ReplayResult {
        if let current = try writer.read({ db in try Self.currentSlices(db) }) { return TaskSlice.merged(current) }
        return try writer.write { db in TaskSlice.merged(try Self.slices(db)) }
    }

    /// The ids of the live tasks (those `replay().tasks` holds), sorted, read from the projection
    /// without decoding any task's state.
    public func liveTaskIDs() throws -> [TaskID] {
        func read(_ db: Database) throws -> [TaskID]? {
            guard try Self.isCurrent(db) else { return nil }
            var ids: [TaskID] = []
            for text in try String.fetchAll(db, sql: "SELECT taskId FROM projection_task WHERE live = 1") {
                guard let id = TaskID(text) else { return nil }
                ids.append(id)
            }
            return ids.sorted()
        }
        if let ids = try writer.read(read) { return ids }
        return try writer.write { db in
            _ = try Self.rebuild(db)
            return try read(db) ?? []
        }
    }

    /// The live tasks as `replay().tasks` has them (by task id), read from the projection with
    /// only each live task's state decoded: a list or a query needs neither the node lists of
    /// every slice nor their merge (issue 29, `tandem tasks list`).
    public func liveTasks() throws -> [RedoTask] {
        if let tasks = try writer.read(Self.currentLiveTasks) { return tasks }
        // Not current, or a row that does not decode: the full path replays and keeps new slices.
        return try replay().tasks
    }

    /// The live tasks from a current projection, sorted by id; nil when it is not current or a
    /// row does not decode.
    private static func currentLiveTasks(_ db: Database) throws -> [RedoTask]? {
        guard try isCurrent(db) else { return nil }
        var blobs: [[UInt8]] = []
        let rows = try Data.fetchCursor(db, sql: "SELECT state FROM projection_task WHERE live = 1")
        while let bytes = try rows.next() { blobs.append(Array(bytes)) }
        return TaskSlice.decodingAll(blobs) { TaskSlice.task(decoding: $0) }?.sorted { $0.taskID < $1.taskID }
    }

    /// The live state of one task, as `replay().tasks` has it; nil when it is not live.
    public func liveTask(_ id: TaskID) throws -> RedoTask? {
        if let slices = try writer.read({ db in try Self.currentSlices(db, of: [id]) }) { return slices[id]?.task }
        return try writer.write { db in try Self.rebuild(db)[id]?.task }
    }

    /// A fresh full replay with `validator`: every stored node read and checked again, nothing
    /// kept (spec §7). Only validated nodes are ever appended, so a stored node that no longer
    /// validates was damaged on disk: that is ``TaskStoreError/corruptNode(id:reason:)``, never a
    /// node silently left out.
    public func replay(validator: NodeValidator) throws -> ReplayResult {
        Replayer.replay(try validNodes(validator: validator))
    }

    /// Every stored node, validated again, in append order (for producers that need parents'
    /// lamports). Nodes marked verified at insert are not signature-checked again. Throws
    /// ``TaskStoreError/corruptNode(id:reason:)`` for the first damaged one.
    public func validNodes(validator: NodeValidator = NodeValidator()) throws -> [RedoNode] {
        try writer.read { db in try Self.storedRows(db, sql: Self.allRowsInOrder) }.map { try Self.node($0, validator) }
    }

    /// The stored valid nodes of one task, in append order (what an edit of that task needs).
    public func validNodes(of task: TaskID, validator: NodeValidator = NodeValidator()) throws -> [RedoNode] {
        try writer.read { db in
            try Self.storedRows(db, sql: Self.allRows + " WHERE taskId = ? ORDER BY seq", [task.description])
        }.map { try Self.node($0, validator) }
    }

    /// Stores `nodes` and returns the live state of their tasks after them (a task that is not
    /// live has no entry), both in one transaction. When the projection was current, only the
    /// tasks the new nodes can affect are replayed again and rewritten (issue 12 item 6).
    /// `alongside` runs in the same transaction (sync marks the nodes it received there).
    @discardableResult
    func appendReturningTasks(
        _ nodes: [RedoNode], alongside: (Database) throws -> Void = { _ in }
    ) throws -> [TaskID: RedoTask] {
        try appendReturningTasks(try nodes.map(LogEntry.init), alongside: alongside)
    }

    /// ``appendReturningTasks(_:alongside:)`` for entries whose canonical text is already made.
    @discardableResult
    func appendReturningTasks(
        _ entries: [LogEntry], alongside: (Database) throws -> Void = { _ in }
    ) throws -> [TaskID: RedoTask] {
        let touched = Set(entries.map(\.node.taskID))
        let slices = try writer.write { db -> [TaskID: TaskSlice] in
            try alongside(db)
            let wasCurrent = try Self.isCurrent(db)
            var inserted: [RedoNode] = []
            let insert = try db.cachedStatement(
                sql: """
                    INSERT OR IGNORE INTO node (id, taskId, lamport, wall, json, verified)
                    VALUES (?, ?, ?, ?, ?, 1)
                    """)
            for entry in entries {
                let node = entry.node
                try insert.execute(arguments: [
                    node.id.description, node.taskID.description, node.lamport, node.wall.description,
                    Data(entry.text),
                ])
                if db.changesCount > 0 { inserted.append(node) }
            }
            guard wasCurrent else { return try Self.rebuild(db, known: Self.byID(inserted)) }
            if !inserted.isEmpty { return try Self.update(db, inserted: inserted) }
            return try Self.currentSlices(db, of: touched) ?? Self.rebuild(db)
        }
        var tasks: [TaskID: RedoTask] = [:]
        for task in touched { if let live = slices[task]?.task { tasks[task] = live } }
        return tasks
    }

    // MARK: rows

    static let allRows = "SELECT seq, id, json, verified FROM node"
    static let allRowsInOrder = allRows + " ORDER BY seq"

    struct StoredRow {
        let id: String
        let json: [UInt8]
        let verified: Bool
    }

    /// Rows as `sql` selects them (`seq, id, json, verified`); a row whose columns are not an id
    /// text and a JSON blob is ``TaskStoreError/corruptNode(id:reason:)``.
    static func storedRows(_ db: Database, sql: String, _ arguments: StatementArguments = []) throws -> [StoredRow] {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            let seq = (try? row.decode(Int64.self, atIndex: 0)).map(String.init) ?? "?"
            guard let id = try? row.decode(String.self, atIndex: 1) else {
                throw TaskStoreError.corruptNode(id: "at seq \(seq)", reason: "the id column is not text")
            }
            guard let json = try? row.decode(Data.self, atIndex: 2) else {
                throw TaskStoreError.corruptNode(id: id, reason: "the json column is not a blob")
            }
            return StoredRow(id: id, json: Array(json), verified: (try? row.decode(Int64.self, atIndex: 3)) == 1)
        }
    }

    /// The row's node: verified rows skip only the signature verify (issue 12 item 6).
    static func node(_ row: StoredRow, _ validator: NodeValidator) throws -> RedoNode {
        do {
            return row.verified
                ? try validator.revalidate(verifiedBytes: row.json) : try validator.validate(bytes: row.json)
        } catch {
            throw TaskStoreError.corruptNode(id: row.id, reason: String(describing: error))
        }
    }
}
