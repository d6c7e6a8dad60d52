import RedoProtocol

/// One task's part of the replayed state, kept as one row of `projection_task` so a command does
/// not re-read, re-verify and replay every node, and an append rewrites only the tasks it touches
/// (issue 12 item 6, seed 004 §12: local edits < 50 ms).
///
/// Replay classifies a node from its own task's nodes and only the presence and task of parents
/// elsewhere (spec §7.2 step 2), so replaying a task's nodes with the parents they name yields that
/// task's part of a full replay; the parts merged in replay's orders equal the full replay (spec §7).
struct TaskSlice: Sendable, Equatable {
    /// An accepted node with its total-order key (spec §7.1), so merged lists stay in order.
    struct Accepted: Sendable, Equatable {
        let id: NodeID
        let lamport: Int64
        let wall: Int64

        static func precedes(_ lhs: Accepted, _ rhs: Accepted) -> Bool {
            if lhs.lamport != rhs.lamport { return lhs.lamport < rhs.lamport }
            if lhs.wall != rhs.wall { return lhs.wall < rhs.wall }
            return lhs.id < rhs.id
        }
    }

    let taskID: TaskID
    var accepted: [Accepted] = []
    var rejected: [NodeVerdict] = []
    var pending: [NodeVerdict] = []
    var tombstones: [NodeID] = []
    var pruned: [NodeID] = []
    var deleted = false
    /// The live state; nil when the task was deleted or has no accepted CREATE.
    var task: RedoTask?
    /// Parents named by this task's nodes that no stored node has: storing one can change this
    /// task's verdicts (a pending child is accepted or rejected).
    var danglingParents: [NodeID] = []

    init(taskID: TaskID) {
        self.taskID = taskID
    }

    /// The slices of `affected` from one replay of `nodes`: every stored node of those tasks plus
    /// every stored node they name as a parent. Nodes of other tasks only inform the verdicts.
    static func replaying(_ nodes: [RedoNode], for affected: Set<TaskID>) -> [TaskID: TaskSlice] {
        let replayed = Replayer.replay(nodes)
        let present = Set(nodes.map(\.id))
        var slices: [TaskID: TaskSlice] = [:]
        var owners: [String: (node: RedoNode, task: TaskID)] = [:]
        for node in nodes where affected.contains(node.taskID) {
            owners[node.id.description] = (node, node.taskID)
            var slice = slices[node.taskID] ?? TaskSlice(taskID: node.taskID)
            slice.danglingParents += node.parents.filter { !present.contains($0) }
            slices[node.taskID] = slice
        }
        for id in replayed.accepted {
            guard let (node, task) = owners[id.description] else { continue }
            slices[task]?.accepted.append(
                Accepted(id: node.id, lamport: node.lamport, wall: node.wall.millisecondsSinceEpoch))
        }
        for verdict in replayed.rejected {
            if let task = owners[verdict.id]?.task { slices[task]?.rejected.append(verdict) }
        }
        for verdict in replayed.pending {
            if let task = owners[verdict.id]?.task { slices[task]?.pending.append(verdict) }
        }
        for id in replayed.tombstones {
            if let task = owners[id.description]?.task { slices[task]?.tombstones.append(id) }
        }
        for id in replayed.pruned { if let task = owners[id.description]?.task { slices[task]?.pruned.append(id) } }
        for task in replayed.deletedTasks where affected.contains(task) { slices[task]?.deleted = true }
        for task in replayed.tasks where affected.contains(task.taskID) { slices[task.taskID]?.task = task }
        for (task, slice) in slices { slices[task]?.danglingParents = Array(Set(slice.danglingParents)).sorted() }
        return slices
    }

    /// The whole state from every task's slice, in the orders replay reports (spec §7): accepted in
    /// total order, verdicts by id bytes, the rest sorted.
    static func merged(_ slices: [TaskSlice]) -> ReplayResult {
        var result = ReplayResult()
        var accepted: [Accepted] = []
        for slice in slices {
            accepted += slice.accepted
            result.rejected += slice.rejected
            result.pending += slice.pending
            result.tombstones += slice.tombstones
            result.pruned += slice.pruned
            if slice.deleted { result.deletedTasks.append(slice.taskID) }
            if let task = slice.task { result.tasks.append(task) }
        }
        result.accepted = accepted.sorted(by: Accepted.precedes).map(\.id)
        result.sortIntoReportOrder()
        return result
    }
}
