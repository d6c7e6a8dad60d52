/// The verdict on one node that was not accepted (spec §6.3, §7.2).
public struct NodeVerdict: Sendable, Equatable {
    /// The node's id text as it arrived (a standalone-rejected node may carry a malformed one).
    public let id: String
    public let code: RedoCode
    public let detail: String

    public init(id: String, code: RedoCode, detail: String) {
        self.id = id
        self.code = code
        self.detail = detail
    }
}

/// Everything replay derives from a set of nodes (spec §7.2); the shape of the vectors'
/// scenario `expected`.
public struct ReplayResult: Sendable {
    /// Accepted nodes in total order.
    public var accepted: [NodeID] = []
    /// Rejected nodes (standalone or contextual), sorted by id.
    public var rejected: [NodeVerdict] = []
    /// Nodes waiting for a missing parent (RES-12), sorted by id.
    public var pending: [NodeVerdict] = []
    /// Accepted DELETE nodes, sorted by id.
    public var tombstones: [NodeID] = []
    /// Accepted nodes that are neither live nor DELETE (dead ends of deleted branches), sorted.
    public var pruned: [NodeID] = []
    /// Tasks whose every branch was deleted, sorted.
    public var deletedTasks: [TaskID] = []
    /// Live task states, sorted by taskId.
    public var tasks: [RedoTask] = []

    public init() {}

    /// Puts every list but `accepted` (already in total order) into the order replay reports
    /// (spec §7): verdicts by id bytes, tombstones, pruned ids, deleted tasks and tasks sorted.
    /// The full replay and the task store's per-task merge both end with it.
    public mutating func sortIntoReportOrder() {
        rejected.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        pending.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        tombstones.sort()
        pruned.sort()
        deletedTasks.sort()
        tasks.sort { $0.taskID < $1.taskID }
    }
}
