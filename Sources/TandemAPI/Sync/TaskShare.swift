/// `POST /api/redo/tasks/{taskId}/share`: the account to add to the task's access list.
public struct TaskShareRequest: RequestBody {
    public var username: String

    public init(username: String) { self.username = username }

    public enum Field: String, CodingKey, CaseIterable, Sendable {
        case username
    }

    private typealias CodingKeys = Field
}

/// The share's answer: `added` is false when the account could already read the task.
public struct TaskShareResponse: Codable, Sendable, Equatable {
    public var taskId: String
    public var username: String
    public var added: Bool

    public init(taskId: String, username: String, added: Bool) {
        self.taskId = taskId
        self.username = username
        self.added = added
    }
}
