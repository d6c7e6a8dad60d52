public import RedoProtocol

/// Who asks and when: a query's `overdue`, `mine` / `shared` and ranks depend on them.
public struct TaskQueryContext: Sendable {
    public var now: WallTime
    /// The `author.userId` of every device key of this account (this device's own among them):
    /// a task is "mine" when one of them created it (spec §11.1: one account, many keys).
    public var accountKeys: Set<UserID>

    public init(now: WallTime, accountKeys: Set<UserID>) {
        self.now = now
        self.accountKeys = accountKeys
    }
}

/// One result: the task's summary and its rank at the context's `now` (nil when not ranked:
/// archived, or no open todo).
public struct TaskQueryRow: Sendable, Equatable {
    public let task: TaskSummary
    public let rank: Double?
    /// The current todo's deadline, if the task has an open todo.
    public var due: WallTime? { task.due }
}

extension TaskQuery {
    /// The query's results over replayed `tasks`: ``run(on:context:)`` over their summaries.
    public func run(on tasks: [RedoTask], context: TaskQueryContext) -> [TaskQueryRow] {
        run(on: tasks.map(TaskSummary.init), context: context)
    }

    /// The query's results over `tasks` (summaries of replayed state, or a projection equal to
    /// it), filtered, sorted and limited. O(n) filtering (cheap members first, text last),
    /// O(k log k) sorting.
    public func run(on tasks: [TaskSummary], context: TaskQueryContext) -> [TaskQueryRow] {
        let words = SearchText.words(search ?? "")
        var rows: [TaskQueryRow] = []
        for task in tasks where matches(task, context: context) {
            if !words.isEmpty && !SearchText(task).containsAll(words) { continue }
            rows.append(TaskQueryRow(task: task, rank: task.rank(now: context.now)))
        }
        if sort == .title {
            // Each title folded once, not once per comparison.
            var keyed = rows.map { (key: SearchText.sortKey($0.task.title), row: $0) }
            keyed.sort { a, b in
                a.key != b.key ? a.key.lexicographicallyPrecedes(b.key) : a.row.task.taskID < b.row.task.taskID
            }
            rows = keyed.map(\.row)
        } else {
            rows.sort(by: order)
        }
        if let limit, rows.count > limit { rows.removeSubrange(limit...) }
        return rows
    }

    /// Every filter but the text search.
    func matches(_ task: TaskSummary, context: TaskQueryContext) -> Bool {
        let current = task.due
        switch status {
        case .active: if task.archived || current == nil { return false }
        case .completed: if task.archived || current != nil { return false }
        case .archived: if !task.archived { return false }
        case .all: break
        }
        if let priorityMin, task.priority < priorityMin { return false }
        if let priorityMax, task.priority > priorityMax { return false }
        if let ownership {
            let mine = context.accountKeys.contains(task.createdBy)
            if mine != (ownership == .mine) { return false }
        }
        if noDue && current != nil { return false }
        if dueBefore != nil || dueAfter != nil || overdue {
            guard let deadline = current else { return false }
            if let dueBefore, !(deadline < dueBefore) { return false }
            if let dueAfter, !(deadline > dueAfter) { return false }
            if overdue && !(deadline < context.now) { return false }
        }
        return true
    }

    /// Whether `a` comes before `b` under `sort`, ties by task id; `.title` is `run()`'s own.
    func order(_ a: TaskQueryRow, _ b: TaskQueryRow) -> Bool {
        switch sort {
        case .rank:
            if a.rank != b.rank { return Self.descendingLast(a.rank, b.rank) }
        case .due:
            if a.due != b.due { return Self.ascendingLast(a.due, b.due) }
        case .priority:
            if a.task.priority != b.task.priority { return a.task.priority > b.task.priority }
        case .created:
            if a.task.created != b.task.created { return a.task.created > b.task.created }
        case .updated:
            if a.task.updated != b.task.updated { return a.task.updated > b.task.updated }
        case .title:
            break  // run() sorts titles by keys folded once per row, before this order is asked
        }
        return a.task.taskID < b.task.taskID
    }

    /// Greatest first, nil after every value.
    private static func descendingLast<T: Comparable>(_ a: T?, _ b: T?) -> Bool {
        switch (a, b) {
        case (let x?, let y?): x > y
        case (.some, nil): true
        default: false
        }
    }

    /// Smallest first, nil after every value.
    private static func ascendingLast<T: Comparable>(_ a: T?, _ b: T?) -> Bool {
        switch (a, b) {
        case (let x?, let y?): x < y
        case (.some, nil): true
        default: false
        }
    }
}
