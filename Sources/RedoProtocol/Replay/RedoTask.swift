/// An actionable instance of a task (spec §8 TodoTask): `guid` is the create-todo's
/// `todoTaskId`, stable across replays (the v1.7 fix).
public struct TodoTask: Sendable, Equatable {
    public let guid: TodoID
    /// The create-todo node, and its place in the total order.
    public let nodeID: NodeID
    public let lamport: Int64
    public let wall: WallTime
    public var deadline: WallTime
    public var notes: String
    public var completed: WallTime?

    /// Public so stores that keep a projection of replayed state can rebuild a todo from its
    /// members (issue 12 item 6).
    public init(
        guid: TodoID, nodeID: NodeID, lamport: Int64, wall: WallTime, deadline: WallTime, notes: String,
        completed: WallTime?
    ) {
        self.guid = guid
        self.nodeID = nodeID
        self.lamport = lamport
        self.wall = wall
        self.deadline = deadline
        self.notes = notes
        self.completed = completed
    }

    /// Orders todos for "current todo": greatest (lamport, wall, nodeId) wins (spec §8, RES-15).
    func isTaller(than other: TodoTask) -> Bool {
        (lamport, wall.millisecondsSinceEpoch, nodeID) > (
            other.lamport, other.wall.millisecondsSinceEpoch, other.nodeID
        )
    }
}

/// The state of one task, recomputed by replay and never stored (spec §7, §8 RedoTask).
public struct RedoTask: Sendable, Equatable {
    public let taskID: TaskID
    public let createdBy: UserID
    public let created: WallTime
    public var title: String
    public var description: String
    public var privacy: Bool
    public var storyPoints: Int64
    /// 5 = highest/urgent … 1 = lowest/backlog.
    public var priority: Int64
    public var frequencyDays: Int64
    public var archived: Bool
    /// In total order of their create-todo nodes.
    public var todos: [TodoTask]
    /// Live nodes with no live child, in total order.
    public var heads: [NodeID]
    /// The last live node; a producer's next node takes it as parent (spec §5).
    public var latestNodeID: NodeID
    /// The latest wall time of the task's live nodes: when it last changed, by its authors'
    /// clocks (issue 27's `updated`; not part of the replay schema of spec §16).
    public var updated: WallTime

    /// The open todo with the greatest (lamport, wall, nodeId); others are orphaned (spec §8).
    public var currentTodo: TodoTask? {
        var best: TodoTask?
        for todo in todos where todo.completed == nil {
            if let current = best, !todo.isTaller(than: current) { continue }
            best = todo
        }
        return best
    }

    /// The state a CREATE makes, given by its facts (the task, its author, its time and its id);
    /// absent CREATE fields take their ``RedoField/defaultValue`` (spec §5, RES-7).
    init(taskID: TaskID, createdBy: UserID, created: WallTime, createID: NodeID, fields: TaskFieldChanges) {
        self.taskID = taskID
        self.createdBy = createdBy
        self.created = created
        title = fields.title ?? RedoField.title.defaultText
        description = fields.description ?? RedoField.description.defaultText
        privacy = fields.privacy ?? RedoField.privacy.defaultFlag
        storyPoints = fields.storyPoints ?? RedoField.storyPoints.defaultInteger
        priority = fields.priority ?? RedoField.priority.defaultInteger
        frequencyDays = fields.frequencyDays ?? RedoField.frequencyDays.defaultInteger
        archived = RedoField.archived.defaultFlag
        todos = []
        heads = [createID]
        latestNodeID = createID
        updated = created
    }

    func todoIndex(_ guid: TodoID) -> Int? {
        todos.firstIndex { $0.guid == guid }
    }
}
