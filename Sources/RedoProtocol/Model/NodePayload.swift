/// Task fields a CREATE sets or an UPDATE overwrites (spec §5). Absent means "not given".
public struct TaskFieldChanges: Sendable, Equatable {
    public var title: String?
    public var description: String?
    public var privacy: Bool?
    public var storyPoints: Int64?
    public var priority: Int64?
    public var frequencyDays: Int64?

    public init(
        title: String? = nil, description: String? = nil, privacy: Bool? = nil, storyPoints: Int64? = nil,
        priority: Int64? = nil, frequencyDays: Int64? = nil
    ) {
        self.title = title
        self.description = description
        self.privacy = privacy
        self.storyPoints = storyPoints
        self.priority = priority
        self.frequencyDays = frequencyDays
    }

    /// Whether no field is given: an UPDATE must change at least one (spec §5).
    public var isEmpty: Bool {
        title == nil && description == nil && privacy == nil && storyPoints == nil && priority == nil
            && frequencyDays == nil
    }
}

/// How a SNOOZE moves the deadline: exactly one of the two (spec §5).
public enum SnoozeChange: Sendable, Equatable {
    case extendByDays(Int64)
    case newDeadline(WallTime)
}

/// The action-specific content of `data.payload`, checked against spec §5.
public enum NodePayload: Sendable {
    case create(TaskFieldChanges)
    case update(TaskFieldChanges)
    case createTodo(todo: TodoID, deadline: WallTime, notes: String?)
    case completeTodo(todo: TodoID, completed: WallTime, notes: String?)
    case snooze(todo: TodoID, change: SnoozeChange, notes: String?)
    case archive
    case unarchive
    /// `deletedChain`: every ancestor of the DELETE, root first (RES-11).
    case delete(deletedChain: [NodeID])
    case merge(MergeSpec)

    public var action: RedoAction {
        switch self {
        case .create: .create
        case .update: .update
        case .createTodo: .createTodo
        case .completeTodo: .completeTodo
        case .snooze: .snooze
        case .archive: .archive
        case .unarchive: .unarchive
        case .delete: .delete
        case .merge: .merge
        }
    }

    /// The todo a create-todo, complete-todo or SNOOZE names; nil for the other actions.
    var todo: TodoID? {
        switch self {
        case .createTodo(let todo, _, _), .completeTodo(let todo, _, _), .snooze(let todo, _, _): todo
        case .create, .update, .archive, .unarchive, .delete, .merge: nil
        }
    }
}
