public import RedoProtocol
import TandemAPI

/// A standalone-valid, signature-checked node ready to store (issue 12 item 2): what the store
/// needs for its contextual checks, plus the canonical text kept verbatim (spec §11.2).
public struct RedoNodeDraft: Sendable, Equatable {
    public let id: String
    public let taskID: String
    public let isCreate: Bool
    public let parents: [String]
    public let authorKey: String
    public let json: [UInt8]

    public init(id: String, taskID: String, isCreate: Bool, parents: [String], authorKey: String, json: [UInt8]) {
        self.id = id
        self.taskID = taskID
        self.isCreate = isCreate
        self.parents = parents
        self.authorKey = authorKey
        self.json = json
    }
}

/// What the store did with one node.
public enum RedoNodeOutcome: Sendable, Equatable {
    case accepted
    /// Already stored (same id, so same content).
    case duplicate
    /// Refused: a parent is not stored in the same task (the server keeps its store closed
    /// under parents, so a pull never hands out a pending node), the task already has another
    /// CREATE, or the pushing account may not read the task.
    case rejected(RedoNodeRejection)
}

/// Why the store refused a node: a Redo protocol code, or the server's own access rule.
public enum RedoNodeRejection: Sendable, Equatable {
    /// `E_PARENT_NOT_FOUND`, `E_DUPLICATE_CREATE` (PROTOCOL.md §5.1).
    case redo(RedoCode)
    /// `E_TASK_FORBIDDEN`: the task exists and the pushing account may not read it.
    case taskForbidden

    /// The code a push answers with.
    public var code: String {
        switch self {
        case .redo(let code): code.rawValue
        case .taskForbidden: RedoSyncCode.taskForbidden
        }
    }
}

/// A node of an account's feed: its position in server order and its canonical text.
public struct StoredRedoNode: Sendable, Equatable {
    public let seq: Int64
    public let json: [UInt8]

    public init(seq: Int64, json: [UInt8]) {
        self.seq = seq
        self.json = json
    }
}

/// What sharing a task did.
public enum TaskShareOutcome: Sendable, Equatable {
    /// The task does not exist or the sharing account cannot read it.
    case notFound
    /// The account can read the task now; its feed got every node of the task.
    case added
    /// The account could already read the task.
    case alreadyShared
    /// The recipient has not accepted a share from this account before, so the share waits as
    /// an invitation until the recipient accepts or declines it (issue 50 item 6).
    case invited
}
