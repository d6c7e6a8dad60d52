public import Foundation

/// `POST /api/redo/tasks/{taskId}/share`: the account to add to the task's access list.
public struct TaskShareRequest: RequestBody {
    public var username: String

    public init(username: String) { self.username = username }

    public enum Field: String, CodingKey, CaseIterable, Sendable {
        case username
    }

    private typealias CodingKeys = Field
}

/// The share's answer: `added` is false when the account could already read the task, or when
/// the share waits as an invitation (`invited`, issue 50 item 6: the recipient has not accepted
/// a share from this account before). An answer without `invited` (an older server) reads false.
public struct TaskShareResponse: Codable, Sendable, Equatable {
    public var taskId: String
    public var username: String
    public var added: Bool
    public var invited: Bool

    public init(taskId: String, username: String, added: Bool, invited: Bool = false) {
        self.taskId = taskId
        self.username = username
        self.added = added
        self.invited = invited
    }

    private enum CodingKeys: String, CodingKey { case taskId, username, added, invited }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        taskId = try container.decode(String.self, forKey: .taskId)
        username = try container.decode(String.self, forKey: .username)
        added = try container.decode(Bool.self, forKey: .added)
        invited = try container.decodeIfPresent(Bool.self, forKey: .invited) ?? false
    }
}

/// A share waiting for this account's answer (`GET /api/redo/invitations`): the task, who
/// shared it (`from`: their username, null for an account without one), the task's title as
/// created (null when the server holds none of its nodes), and when it was shared.
public struct TaskInvitation: Codable, Sendable, Equatable {
    public var taskId: String
    public var from: String?
    public var title: String?
    public var createdAt: Date

    public init(taskId: String, from: String?, title: String?, createdAt: Date) {
        self.taskId = taskId
        self.from = from
        self.title = title
        self.createdAt = createdAt
    }

    private enum CodingKeys: String, CodingKey { case taskId, from, title, createdAt }

    /// `from` and `title` are written as null rather than left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(taskId, forKey: .taskId)
        try container.encode(from, forKey: .from)
        try container.encode(title, forKey: .title)
        try container.encode(createdAt, forKey: .createdAt)
    }
}

/// `GET /api/redo/invitations`: the oldest invitations first (at most 500).
public struct TaskInvitationsResponse: Codable, Sendable, Equatable {
    public var invitations: [TaskInvitation]

    public init(invitations: [TaskInvitation]) { self.invitations = invitations }
}

/// The answer to `POST /api/redo/invitations/{taskId}/accept` or `/decline`: `accepted`, and
/// `added` (false when declined, or when the account could already read the task).
public struct TaskInvitationAnswer: Codable, Sendable, Equatable {
    public var taskId: String
    public var from: String?
    public var accepted: Bool
    public var added: Bool

    public init(taskId: String, from: String?, accepted: Bool, added: Bool) {
        self.taskId = taskId
        self.from = from
        self.accepted = accepted
        self.added = added
    }

    private enum CodingKeys: String, CodingKey { case taskId, from, accepted, added }

    /// `from` is written as null rather than left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(taskId, forKey: .taskId)
        try container.encode(from, forKey: .from)
        try container.encode(accepted, forKey: .accepted)
        try container.encode(added, forKey: .added)
    }
}
