/// Why a task-store operation failed; each case names the input at fault.
public enum TaskStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The profile's key file is missing bytes, is not hex, or is not a 32-byte seed.
    case malformedKeyFile(path: String)
    /// The key file is readable by group or others; it must be 0600.
    case keyFileTooOpen(path: String, permissions: Int)
    /// The device-id file is empty or unreadable.
    case malformedDeviceFile(path: String)
    /// No live task has this id or id prefix.
    case unknownTask(String)
    /// More than one task starts with this prefix.
    case ambiguousTask(String)
    /// A task prefix shorter than an edit takes.
    case prefixTooShort(String, minimum: Int)
    /// The task has no open todo to complete or snooze.
    case noCurrentTodo(task: String)
    /// An edit that changes nothing.
    case emptyEdit(task: String)
    /// A field value outside its range (priority 1–5, title non-empty, days ≥ 1).
    case invalidField(name: String, reason: String)
    /// A produced node failed validation (a bug guard: producers only emit valid nodes).
    case invalidNode(String)
    /// A stored node that no longer validates: the log file was changed outside the store.
    case corruptNode(id: String, reason: String)

    public var description: String {
        switch self {
        case .malformedKeyFile(let path): "key file '\(path)' does not hold a 32-byte Ed25519 seed in hex"
        case .keyFileTooOpen(let path, let permissions):
            "key file '\(path)' has permissions \(String(permissions, radix: 8)); it must be 600"
        case .malformedDeviceFile(let path): "device file '\(path)' does not hold a device id"
        case .unknownTask(let id): "no task '\(id)'"
        case .ambiguousTask(let prefix): "task prefix '\(prefix)' matches more than one task"
        case .prefixTooShort(let prefix, let minimum):
            "task prefix '\(prefix)' is too short to change a task: give at least \(minimum) characters of its id"
        case .noCurrentTodo(let task): "task \(task) has no open todo"
        case .emptyEdit(let task): "edit of task \(task) changes nothing"
        case .invalidField(let name, let reason): "\(name) \(reason)"
        case .invalidNode(let detail): "produced node is invalid: \(detail)"
        case .corruptNode(let id, let reason): "stored node \(id) is corrupt: \(reason)"
        }
    }
}
