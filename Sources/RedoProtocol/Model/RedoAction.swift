/// The nine actions of Redo v1 (spec §1, §5). `CREATE_TASK` does not exist.
public enum RedoAction: String, Sendable, CaseIterable {
    case create = "CREATE"
    case update = "UPDATE"
    case delete = "DELETE"
    // Protocol names, spelled as the spec spells them (they are not work markers).
    case completeTodo = "COMPLETE_TODO"
    case createTodo = "CREATE_TODO"
    case snooze = "SNOOZE"
    case archive = "ARCHIVE"
    case unarchive = "UNARCHIVE"
    case merge = "MERGE"

    /// The parent counts the schema allows for this action (spec §2, RES-1).
    var allowedParentCounts: ClosedRange<Int> {
        switch self {
        case .create: 0...0
        case .merge: 2...10
        default: 1...1
        }
    }
}
