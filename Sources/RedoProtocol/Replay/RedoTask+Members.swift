extension RedoTask {
    /// Rebuilds a task state from its members, for stores that keep a projection of replayed
    /// state (issue 12 item 6); replay itself builds tasks from their CREATE node.
    public init(
        taskID: TaskID, createdBy: UserID, created: WallTime, title: String, description: String, privacy: Bool,
        storyPoints: Int64, priority: Int64, frequencyDays: Int64, archived: Bool, todos: [TodoTask],
        heads: [NodeID], latestNodeID: NodeID, updated: WallTime
    ) {
        self.taskID = taskID
        self.createdBy = createdBy
        self.created = created
        self.title = title
        self.description = description
        self.privacy = privacy
        self.storyPoints = storyPoints
        self.priority = priority
        self.frequencyDays = frequencyDays
        self.archived = archived
        self.todos = todos
        self.heads = heads
        self.latestNodeID = latestNodeID
        self.updated = updated
    }
}
