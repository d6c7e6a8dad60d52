public import RedoApp

/// A saved task filter (issue 27 item 3): a named ``TaskQuery``, kept in the profile's task
/// database and synced, sealed, between the account's devices.
///
/// Each preset is a last-writer-wins register under a random id: a save, a rename and a delete
/// each write the whole record with a new stamp, and the greater `(stamp, origin)` wins
/// everywhere, so devices that saw the same records agree whatever order they saw them in. A
/// rename on one device and a delete on another end the same on both: the later of the two.
public struct TaskPreset: Sendable, Equatable {
    /// 64 lowercase hex, random: a rename keeps it.
    public let id: String
    public var name: String
    public var query: TaskQuery
    /// Milliseconds from the profile's hybrid logical clock: never behind a stamp it has seen.
    public var stamp: Int64
    /// The device that wrote this version (the tie-break between equal stamps).
    public var origin: String
    public var deleted: Bool

    public init(id: String, name: String, query: TaskQuery, stamp: Int64, origin: String, deleted: Bool) {
        self.id = id
        self.name = name
        self.query = query
        self.stamp = stamp
        self.origin = origin
        self.deleted = deleted
    }

    /// Whether this version wins over `other` (of the same record, or for the same name).
    public func supersedes(_ other: TaskPreset) -> Bool {
        (stamp, origin, id) > (other.stamp, other.origin, other.id)
    }
}

/// Why a preset operation failed, naming the input at fault.
public enum TaskPresetError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidName(String)
    case unknown(String)
    case exists(String)
    case storage(String)

    public var description: String {
        switch self {
        case .invalidName(let reason): "preset name \(reason)"
        case .unknown(let name): "no preset '\(name)'"
        case .exists(let name): "a preset '\(name)' already exists"
        case .storage(let reason): "the preset store failed: \(reason)"
        }
    }
}
