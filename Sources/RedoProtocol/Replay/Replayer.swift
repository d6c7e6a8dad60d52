/// Rebuilds task state from nodes (spec §7): classify every node in one pass over the total
/// order, then per task find the live set and replay it.
///
/// The result does not depend on the order of the input: nodes are deduplicated by id and sorted
/// by (lamport, wall, id) before anything else looks at them.
public struct Replayer: Sendable {
    enum Status: UInt8 { case unprocessed, accepted, rejected, pending }

    /// Per-task bookkeeping during classification; one value serves every task in turn, so its
    /// set keeps its storage from task to task.
    struct TaskContext {
        var hasCreate = false
        var createdTodos: Set<TodoID> = []

        mutating func reset() {
            hasCreate = false
            // A set grown by one task with many todos is let go, so clearing stays cheap for the rest.
            createdTodos.removeAll(keepingCapacity: createdTodos.capacity <= 64)
        }
    }

    /// The nodes and what classification reads of them, in total order (``ReplayFacts``).
    let log: ReplayFacts
    /// Ids in total order, and an id → position index.
    let ids: [NodeID]
    let index: NodeIndex
    /// Hot per-node facts by position, so the classification loop reads contiguous arrays
    /// instead of chasing a million boxes: a parent's lamport, action and task are one read.
    let facts: [PositionFacts]
    /// The todo a create-todo, complete-todo or SNOOZE names, by position (nil for the others),
    /// so the §6.3 todo checks do not open the node.
    let todos: [TodoID?]
    let taskIDs: [TaskID]
    /// Parents of the node at position p: `parentIDs/parentPositions[parentStarts[p]..<parentStarts[p + 1]]`
    /// (in the node's order), position −1 for a parent that is not present. Resolved once, when
    /// the node was added to the facts.
    let parentStarts: [Int]
    let parentIDs: [NodeID]
    let parentPositions: [Int]

    /// What classification reads of the node at one position.
    struct PositionFacts {
        var lamport: Int64
        /// The index of the node's task in `taskIDs`.
        var ordinal: Int
        var action: RedoAction
    }

    /// The node at `position` in total order.
    func node(at position: Int) -> RedoNode { log.node(at: position) }

    /// The action of the node at `position`.
    func action(at position: Int) -> RedoAction { facts[position].action }

    public init(nodes input: [RedoNode]) {
        self.init(facts: ReplayFacts(nodes: input))
    }

    /// Replays facts built beforehand, as nodes were stored (issue 49 item 1).
    public init(facts log: ReplayFacts) {
        self.log = log
        ids = log.ids
        index = log.index
        facts = log.facts
        todos = log.todos
        taskIDs = log.taskIDs
        parentStarts = log.parentStarts
        parentIDs = log.parentIDs
        parentPositions = log.parentPositions
    }

    /// The position of a node in the total order, if present.
    func position(of id: NodeID) -> Int? { index.position(of: id, in: ids) }

    /// Positions of the parents of the node at `position` (−1 = absent).
    func parentPositions(of position: Int) -> ArraySlice<Int> {
        parentPositions[parentStarts[position]..<parentStarts[position + 1]]
    }

    /// Replays the nodes; `standaloneRejections` are nodes that failed §6.2 (their children are
    /// rejected too and they appear in `rejected`).
    public static func replay(_ nodes: [RedoNode], standaloneRejections: [NodeVerdict] = []) -> ReplayResult {
        Replayer(nodes: nodes).replay(standaloneRejections: standaloneRejections)
    }

    /// Replays facts built as the nodes were stored: no sort, no pass over the nodes to classify
    /// them (issue 49 item 1). The same result as ``replay(_:standaloneRejections:)`` over the
    /// same nodes.
    public static func replay(_ facts: ReplayFacts, standaloneRejections: [NodeVerdict] = []) -> ReplayResult {
        Replayer(facts: facts).replay(standaloneRejections: standaloneRejections)
    }

    /// Classifies and rebuilds one task at a time (issue 49 item 1): a node's verdict reads only
    /// its own task's earlier verdicts (a parent of another task is refused before its status is
    /// read), so each task's positions, taken in total order, give the verdicts a pass over the
    /// whole order gives, while that task's facts are still in the cache.
    public func replay(standaloneRejections: [NodeVerdict] = []) -> ReplayResult {
        var result = ReplayResult()
        let invalidIDs = Set(standaloneRejections.map(\.id))
        var status = [Status](repeating: .unprocessed, count: ids.count)
        let (starts, byTask) = positionsByTask()
        var context = TaskContext()
        var accepted: [Int] = []
        var scratch = ReconstructionScratch(count: ids.count)
        for ordinal in taskIDs.indices {
            context.reset()
            accepted.removeAll(keepingCapacity: true)
            for position in byTask[starts[ordinal]..<starts[ordinal + 1]] {
                switch classify(position, status: status, context: &context, invalidIDs: invalidIDs) {
                case nil:
                    status[position] = .accepted
                    accepted.append(position)
                case .some(let (code, detail, isPending)):
                    status[position] = isPending ? .pending : .rejected
                    let entry = NodeVerdict(id: ids[position].description, code: code, detail: detail)
                    if isPending { result.pending.append(entry) } else { result.rejected.append(entry) }
                }
            }
            if !accepted.isEmpty { reconstruct(taskIDs[ordinal], accepted: accepted, scratch: &scratch, into: &result) }
        }
        result.accepted.reserveCapacity(ids.count)
        for position in ids.indices where status[position] == .accepted { result.accepted.append(ids[position]) }
        // A copy that failed standalone checks does not outweigh a valid node with the same id.
        result.rejected += standaloneRejections.filter { rejection in
            NodeID(rejection.id).map { position(of: $0) == nil } ?? true
        }
        result.sortIntoReportOrder()
        return result
    }

    /// Every task's positions in total order, one run per task (a counting sort by task):
    /// task `t`'s are `byTask[starts[t]..<starts[t + 1]]`.
    private func positionsByTask() -> (starts: [Int], byTask: [Int]) {
        var starts = [Int](repeating: 0, count: taskIDs.count + 1)
        for fact in facts { starts[fact.ordinal + 1] += 1 }
        for ordinal in taskIDs.indices { starts[ordinal + 1] += starts[ordinal] }
        var next = starts
        var byTask = [Int](repeating: 0, count: ids.count)
        for position in ids.indices {
            let ordinal = facts[position].ordinal
            byTask[next[ordinal]] = position
            next[ordinal] += 1
        }
        return (starts, byTask)
    }

    /// nil = accepted; otherwise the code, detail and whether the node is pending (spec §7.2 step 2).
    private func classify(_ index: Int, status: [Status], context: inout TaskContext, invalidIDs: Set<String>)
        -> (RedoCode, String, Bool)?
    {
        var pendingVerdict: (RedoCode, String, Bool)?
        var maxParentLamport: Int64 = 0
        for offset in parentStarts[index]..<parentStarts[index + 1] {
            let parentIndex = parentPositions[offset]
            guard parentIndex >= 0 else {
                let parent = parentIDs[offset]
                if invalidIDs.contains(parent.description) {
                    return (.ancestorRejected, "parent \(parent) is invalid", false)
                }
                pendingVerdict = pendingVerdict ?? (.parentNotFound, "parent \(parent) not present", true)
                continue
            }
            let parent = facts[parentIndex]
            if parent.ordinal != facts[index].ordinal {
                return (.parentNotFound, "parent \(ids[parentIndex]) belongs to another task", false)
            }
            switch status[parentIndex] {
            case .rejected: return (.ancestorRejected, "parent \(ids[parentIndex]) rejected", false)
            case .pending:
                pendingVerdict = pendingVerdict ?? (.ancestorPending, "parent \(ids[parentIndex]) pending", true)
            case .unprocessed: return (.lamportViolation, "parent \(ids[parentIndex]) sorts after its child", false)
            case .accepted:
                if parent.action == .delete {
                    return (.descendantOfDelete, "parent \(ids[parentIndex]) is a DELETE tombstone", false)
                }
            }
            maxParentLamport = max(maxParentLamport, parent.lamport)
        }
        if let pendingVerdict { return pendingVerdict }
        return contextualCheck(index, maxParentLamport: maxParentLamport, context: &context)
    }

    /// Spec §6.3 checks for a node whose parents are all accepted.
    private func contextualCheck(_ index: Int, maxParentLamport: Int64, context: inout TaskContext)
        -> (RedoCode, String, Bool)?
    {
        let action = facts[index].action
        if action == .create {
            if context.hasCreate { return (.duplicateCreate, "a CREATE sorting earlier exists", false) }
            context.hasCreate = true
            return nil
        }
        guard facts[index].lamport == maxParentLamport + 1 else {
            return (.lamportViolation, "lamport must be \(maxParentLamport + 1)", false)
        }
        switch action {
        case .create, .update, .archive, .unarchive: return nil
        case .createTodo:
            guard let todo = todos[index], context.createdTodos.insert(todo).inserted else {
                return (.invalidTodoRef, "todoTaskId already used in this task", false)
            }
            return nil
        case .completeTodo, .snooze:
            guard let todo = todos[index], context.createdTodos.contains(todo) else {
                return (.invalidTodoRef, "todoTaskId not created by a create-todo node", false)
            }
            return nil
        case .delete, .merge: break
        }
        let node = node(at: index)
        switch node.payload {
        case .delete(let chain):
            let ancestors = ancestorPositions(of: index)
            var chainPositions: Set<Int> = []
            for id in chain {
                guard let chainIndex = position(of: id) else {
                    return (.missingDeletedChain, "deletedChain must list exactly the ancestors of the DELETE", false)
                }
                chainPositions.insert(chainIndex)
            }
            if chainPositions != ancestors {
                return (.missingDeletedChain, "deletedChain must list exactly the ancestors of the DELETE", false)
            }
        case .merge(let spec):
            if let problem = mergeProblem(node, spec: spec) { return (.schemaMismatch, problem, false) }
        case .create, .update, .archive, .unarchive, .createTodo, .completeTodo, .snooze:
            break
        }
        return nil
    }

    /// MERGE context rules (spec §6.3): `base` is a strict ancestor of every parent, and every
    /// `chosenParent` is one of the parents.
    private func mergeProblem(_ node: RedoNode, spec: MergeSpec) -> String? {
        guard let basePosition = position(of: spec.base) else { return "merge base is not an ancestor of every parent" }
        for parent in node.parents {
            guard let parentPosition = position(of: parent),
                ancestorPositions(of: parentPosition).contains(basePosition)
            else { return "merge base is not an ancestor of every parent" }
        }
        let chosen =
            spec.taskResolutions.compactMap(\.chosenParent)
            + spec.todoResolutions.flatMap { $0.fields.compactMap(\.chosenParent) }
        for id in chosen where !node.parents.contains(id) {
            return "chosenParent \(id) is not a parent of the MERGE"
        }
        return nil
    }

    /// Positions of all strict ancestors of the node at `index` (parents must be present).
    func ancestorPositions(of index: Int) -> Set<Int> {
        var found: Set<Int> = []
        var stack = [index]
        while let current = stack.popLast() {
            for parentIndex in parentPositions(of: current) where parentIndex >= 0 {
                if found.insert(parentIndex).inserted { stack.append(parentIndex) }
            }
        }
        return found
    }
}
