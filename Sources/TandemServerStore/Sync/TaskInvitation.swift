public import TandemBasics

/// A share waiting for its recipient (issue 50 item 6): a share from an account the recipient
/// has not accepted a share from before. One per task and recipient (the first sharer's).
public struct StoredTaskInvitation: Sendable, Equatable {
    public let taskID: String
    public let sharerID: AccountID
    /// The sharer's username; nil for an account without one.
    public let sharerUsername: String?
    public let createdAt: UnixMillis
    /// The canonical text of the task's first stored node (its `CREATE`), where the title is;
    /// nil when the task has no stored node.
    public let firstNode: [UInt8]?

    public init(
        taskID: String, sharerID: AccountID, sharerUsername: String?, createdAt: UnixMillis, firstNode: [UInt8]?
    ) {
        self.taskID = taskID
        self.sharerID = sharerID
        self.sharerUsername = sharerUsername
        self.createdAt = createdAt
        self.firstNode = firstNode
    }
}

/// What accepting or declining an invitation did.
public enum TaskInvitationOutcome: Sendable, Equatable {
    /// No invitation to this task waits for the account (or its sharer can no longer read it).
    case notFound
    /// The account can read the task (`added` false: it already could) and now takes shares
    /// from the sharer without asking.
    case accepted(sharerUsername: String?, added: Bool)
    /// The invitation is gone; the sharer is not told and may share again.
    case declined(sharerUsername: String?)
}

/// The bound of one listing of invitations: a recipient sees the oldest this many.
public enum TaskInvitationLimits {
    public static let listed = 500
}
