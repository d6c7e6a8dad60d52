import Foundation
import GRDB
import RedoApp
import RedoProtocol

/// The projection tables: one slice of replayed state per task, and the log generation the slices
/// were built at (issue 12 item 6). Any change to `node` bumps the generation (triggers, v2
/// migration), so slices older than the log are never used: the next read replays the whole log.
extension TaskLog {
    /// The log's generation; nil when its row is missing (then no projection is ever current).
    static func generation(_ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT value FROM log_generation WHERE id = 1")
    }

    /// Whether the slices were built at the log's current generation.
    static func isCurrent(_ db: Database) throws -> Bool {
        guard let generation = try generation(db) else { return false }
        return try Int64.fetchOne(db, sql: "SELECT generation FROM projection_header WHERE id = 1") == generation
    }

    /// Every task's slice when the projection is current and every row decodes; nil otherwise.
    static func currentSlices(_ db: Database) throws -> [TaskSlice]? {
        guard try isCurrent(db) else { return nil }
        var blobs: [[UInt8]] = []
        let rows = try Data.fetchCursor(db, sql: "SELECT state FROM projection_task")
        while let bytes = try rows.next() { blobs.append(Array(bytes)) }
        return TaskSlice.decodingAll(blobs)
    }

    /// The slices of `tasks` when the projection is current and their rows decode; nil otherwise.
    /// A task without a row has no nodes and no slice.
    static func currentSlices(_ db: Database, of tasks: Set<TaskID>) throws -> [TaskID: TaskSlice]? {
        guard try isCurrent(db) else { return nil }
        var slices: [TaskID: TaskSlice] = [:]
        let statement = try db.cachedStatement(sql: "SELECT state FROM projection_task WHERE taskId = ?")
        for task in tasks {
            guard let bytes = try Data.fetchOne(statement, arguments: [task.description]) else { continue }
            guard let slice = TaskSlice(decoding: Array(bytes)), slice.taskID == task else { return nil }
            slices[task] = slice
        }
        return slices
    }

    /// Every task's slice: the current ones, or a full replay of the log kept as the new ones.
    static func slices(_ db: Database) throws -> [TaskSlice] {
        if let current = try currentSlices(db) { return current }
        return Array(try rebuild(db).values)
    }

    /// A full replay of the log, kept as every task's slice. Unverified rows (from v1, or whose
    /// bytes were changed by hand) get every check and, if they pass, are marked verified. A row
    /// in `known` (nodes this transaction has just inserted, as ``replayInput(_:tasks:known:)``
    /// takes them) is not parsed and hashed again: the first page a new device pulls lands here.
    static func rebuild(_ db: Database, known: [String: RedoNode] = [:]) throws -> [TaskID: TaskSlice] {
        let rows = try storedRows(db, sql: allRowsInOrder)
        let validator = NodeValidator()
        var nodes: [RedoNode] = []
        nodes.reserveCapacity(rows.count)
        for row in rows {
            nodes.append(try known[row.id] ?? node(row, validator))
            if !row.verified {
                try db.execute(sql: "UPDATE node SET verified = 1 WHERE id = ?", arguments: [row.id])
            }
        }
        let slices = TaskSlice.replaying(nodes, for: Set(nodes.map(\.taskID)))
        try db.execute(sql: "DELETE FROM projection_task; DELETE FROM projection_dangling")
        try save(Array(slices.values), db)
        return slices
    }

    /// Replays only the tasks `inserted` can affect (their own, and those waiting for one of them
    /// as a parent) and rewrites their rows; the projection must have been current before the
    /// insert. Returns the affected slices.
    static func update(_ db: Database, inserted: [RedoNode]) throws -> [TaskID: TaskSlice] {
        var affected = Set(inserted.map(\.taskID))
        let waiting = try db.cachedStatement(sql: "SELECT taskId FROM projection_dangling WHERE parent = ?")
        // Usually no task waits for a parent (a pull stores parents first): one look at the
        // table instead of one per inserted node.
        let anyWaiting = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM projection_dangling)") ?? true
        for node in inserted where anyWaiting {
            for task in try String.fetchAll(waiting, arguments: [node.id.description]) {
                guard let id = TaskID(task) else { return try rebuild(db) }
                affected.insert(id)
            }
        }
        let slices = TaskSlice.replaying(try replayInput(db, tasks: affected, known: byID(inserted)), for: affected)
        let forget = try db.cachedStatement(sql: "DELETE FROM projection_dangling WHERE taskId = ?")
        for task in affected { try forget.execute(arguments: [task.description]) }
        try save(Array(slices.values), db)
        return slices
    }

    /// Nodes by their id's text, as rows name them.
    static func byID(_ nodes: [RedoNode]) -> [String: RedoNode] {
        var known: [String: RedoNode] = [:]
        known.reserveCapacity(nodes.count)
        for node in nodes { known[node.id.description] = node }
        return known
    }

    /// Every stored node of `tasks`, plus every stored node they name as a parent (its presence
    /// and task decide a child's verdict, spec §7.2 step 2). A row in `known` (the nodes this
    /// transaction has just inserted, from the very values whose canonical text it wrote) is
    /// taken from memory instead of being parsed and hashed again (issue 12 "Figures": a pull of
    /// 10,000 nodes re-read each of them once per page).
    static func replayInput(_ db: Database, tasks: Set<TaskID>, known: [String: RedoNode] = [:]) throws
        -> [RedoNode]
    {
        let validator = NodeValidator()
        var nodes: [RedoNode] = []
        for task in tasks.sorted() {
            if let all = try knownNodes(db, of: task, known: known) {
                nodes += all
                continue
            }
            let rows = try storedRows(db, sql: allRows + " WHERE taskId = ? ORDER BY seq", [task.description])
            for row in rows { nodes.append(try known[row.id] ?? node(row, validator)) }
        }
        let present = Set(nodes.map(\.id))
        var foreign: Set<NodeID> = []
        for node in nodes { foreign.formUnion(node.parents.filter { !present.contains($0) }) }
        for parent in foreign.sorted() {
            let rows = try storedRows(db, sql: allRows + " WHERE id = ?", [parent.description])
            for row in rows { nodes.append(try known[row.id] ?? node(row, validator)) }
        }
        return nodes
    }

    /// The stored nodes of `task` in append order when every one of them is in `known`, found by
    /// their ids alone; nil otherwise (then the caller reads and checks the rows). A new device's
    /// pull replays tasks whose nodes it has all just inserted, so their texts need not be read
    /// back (issue 12 "Figures").
    static func knownNodes(_ db: Database, of task: TaskID, known: [String: RedoNode]) throws -> [RedoNode]? {
        guard !known.isEmpty else { return nil }
        let statement = try db.cachedStatement(sql: "SELECT id FROM node WHERE taskId = ? ORDER BY seq")
        let rows = try Row.fetchCursor(statement, arguments: [task.description])
        var nodes: [RedoNode] = []
        while let row = try rows.next() {
            guard let id = try? row.decode(String.self, atIndex: 0), let node = known[id] else { return nil }
            nodes.append(node)
        }
        return nodes
    }

    /// Writes the rows of `slices` (their dangling parents already forgotten) and stamps the
    /// projection with the log's current generation.
    static func save(_ slices: [TaskSlice], _ db: Database) throws {
        let row = try db.cachedStatement(sql: summaryInsert)
        let dangling = try db.cachedStatement(
            sql: "INSERT OR IGNORE INTO projection_dangling (parent, taskId) VALUES (?, ?)")
        for slice in slices {
            try row.execute(
                arguments: [slice.taskID.description, slice.task != nil, Data(try slice.encoded())]
                    + (try summaryArguments(slice.task.map(TaskSummary.init))))
            for parent in slice.danglingParents {
                try dangling.execute(arguments: [parent.description, slice.taskID.description])
            }
        }
        guard let generation = try generation(db) else { return }
        try db.execute(
            sql: "INSERT OR REPLACE INTO projection_header (id, generation) VALUES (1, ?)", arguments: [generation])
    }
}
