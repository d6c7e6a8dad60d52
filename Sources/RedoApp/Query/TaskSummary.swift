public import RedoProtocol

/// What a task list filters, ranks, searches and prints of one live task (issue 49 item 2): the
/// task's own fields, its current todo's deadline and its todos' notes, without the todos, heads
/// and node ids a producer needs. A task log keeps these as columns of its projection, so a list
/// reads them without decoding any replayed state.
public struct TaskSummary: Sendable, Equatable {
    public let taskID: TaskID
    public let createdBy: UserID
    public let created: WallTime
    /// When the task last changed, by its authors' clocks (``RedoTask/updated``).
    public let updated: WallTime
    public let title: String
    public let description: String
    public let privacy: Bool
    public let storyPoints: Int64
    /// 5 = highest/urgent … 1 = lowest/backlog.
    public let priority: Int64
    public let frequencyDays: Int64
    public let archived: Bool
    /// The current todo's deadline (``RedoTask/currentTodo``); nil when no todo is open.
    public let due: WallTime?
    /// The non-empty notes of the task's todos, in the todos' order: what a text search reads
    /// beside the title and description.
    public let notes: [String]

    public init(
        taskID: TaskID, createdBy: UserID, created: WallTime, updated: WallTime, title: String, description: String,
        privacy: Bool, storyPoints: Int64, priority: Int64, frequencyDays: Int64, archived: Bool, due: WallTime?,
        notes: [String]
    ) {
        self.taskID = taskID
        self.createdBy = createdBy
        self.created = created
        self.updated = updated
        self.title = title
        self.description = description
        self.privacy = privacy
        self.storyPoints = storyPoints
        self.priority = priority
        self.frequencyDays = frequencyDays
        self.archived = archived
        self.due = due
        self.notes = notes
    }

    /// The summary of a replayed task.
    public init(_ task: RedoTask) {
        self.init(
            taskID: task.taskID, createdBy: task.createdBy, created: task.created, updated: task.updated,
            title: task.title, description: task.description, privacy: task.privacy, storyPoints: task.storyPoints,
            priority: task.priority, frequencyDays: task.frequencyDays, archived: task.archived,
            due: task.currentTodo?.deadline, notes: task.todos.map(\.notes).filter { !$0.isEmpty })
    }

    /// The task's rank at `now` (spec §10), as ``Ranking/rank(_:now:)`` ranks the replayed task;
    /// nil when it is archived or has no open todo.
    public func rank(now: WallTime) -> Double? {
        guard !archived, let due else { return nil }
        return Ranking.rank(priority: priority, storyPoints: storyPoints, due: due, now: now)
    }
}
