/// Rebuilds task state from nodes (spec §7): classify every node in one pass over the total
/// order, then per task find the live set and replay it.
///
/// The result does not depend on the order of the input: nodes are deduplicated by id and sorted
/// by (lamport, wall, id) before anything else looks at them.
public struct Replayer: Sendable {
    enum Status: UInt8 { case unprocessed, accepted, rejected, pending }

    /// Per-task bookkeeping during classification.
    struct TaskContext {
        let taskID: TaskID
        var hasCreate = false
        var createdTodos: Set<TodoID> = []
        /// Accepted positions in total order.
        var accepted: [Int] = []
    }

    /// Nodes in total order, their ids, and an id → position index.
    let nodes: [RedoNode]
    let ids: [NodeID]
    let index: NodeIndex
    /// Parent positions of node i: `parentPositions[parentOffsets[i]..<parentOffsets[i + 1]]`,
    /// −1 for a parent that is not present. Resolved once, used by every later pass.
    let parentOffsets: [Int]
    let parentPositions: [Int]

    public init(nodes input: [RedoNode]) {
        // Sort plain keys, not nodes; equal ids are equal content, so duplicates end up adjacent.
        var keys: [(key: RedoNode.OrderKey, index: Int)] = []
        keys.reserveCapacity(input.count)
        for index in input.indices { keys.append((input[index].orderKey, index)) }
        keys.sort { $0.key < $1.key }
        var unique: [RedoNode] = []
        unique.reserveCapacity(input.count)
        var ids: [NodeID] = []
        ids.reserveCapacity(input.count)
        for (key, index) in keys where key.id != ids.last {
            ids.append(key.id)
            unique.append(input[index])
        }
        let index = NodeIndex(ids: ids)
        var offsets: [Int] = [0]
        offsets.reserveCapacity(unique.count + 1)
        var parents: [Int] = []
        parents.reserveCapacity(unique.count)
        for node in unique {
            for parent in node.parents { parents.append(index.position(of: parent, in: ids) ?? -1) }
            offsets.append(parents.count)
        }
        self.nodes = unique
        self.ids = ids
        self.index = index
        self.parentOffsets = offsets
        self.parentPositions = parents
    }

    /// The position of a node in the total order, if present.
    func position(of id: NodeID) -> Int? { index.position(of: id, in: ids) }

    /// Positions of the parents of the node at `position` (−1 = absent).
    func parentPositions(of position: Int) -> ArraySlice<Int> {
        parentPositions[parentOffsets[position]..<parentOffsets[position + 1]]
    }

    /// Replays the nodes; `standaloneRejections` are nodes that failed §6.2 (their children are
    /// rejected too and they appear in `rejected`).
    public static func replay(_ nodes: [RedoNode], standaloneRejections: [NodeVerdict] = []) -> ReplayResult {
        Replayer(nodes: nodes).replay(standaloneRejections: standaloneRejections)
    }

    public func replay(standaloneRejections: [NodeVerdict] = []) -> ReplayResult {
        var result = ReplayResult()
        let invalidIDs = Set(standaloneRejections.map(\.id))
        var status = [Status](repeating: .unprocessed, count: nodes.count)
        var ordinals: [TaskID: Int] = [:]
        var contexts: [TaskContext] = []
        for position in nodes.indices {
            let node = nodes[position]
            let ordinal: Int
            if let known = ordinals[node.taskID] {
                ordinal = known
            } else {
                ordinal = contexts.count
                ordinals[node.taskID] = ordinal
                contexts.append(TaskContext(taskID: node.taskID))
            }
            let verdict = classify(position, status: status, context: &contexts[ordinal], invalidIDs: invalidIDs)
            switch verdict {
            case nil:
                status[position] = .accepted
                contexts[ordinal].accepted.append(position)
                result.accepted.append(node.id)
            case .some(let (code, detail, isPending)):
                status[position] = isPending ? .pending : .rejected
                let entry = NodeVerdict(id: node.id.description, code: code, detail: detail)
                if isPending { result.pending.append(entry) } else { result.rejected.append(entry) }
            }
        }
        // A copy that failed standalone checks does not outweigh a valid node with the same id.
        result.rejected += standaloneRejections.filter { rejection in
            NodeID(rejection.id).map { position(of: $0) == nil } ?? true
        }
        var scratch = ReconstructionScratch(count: nodes.count)
        for context in contexts where !context.accepted.isEmpty {
            reconstruct(context.taskID, accepted: context.accepted, scratch: &scratch, into: &result)
        }
        result.rejected.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        result.pending.sort { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
        result.tombstones.sort()
        result.pruned.sort()
        result.deletedTasks.sort()
        result.tasks.sort { $0.taskID < $1.taskID }
        return result
    }

    /// nil = accepted; otherwise the code, detail and whether the node is pending (spec §7.2 step 2).
    private func classify(_ index: Int, status: [Status], context: inout TaskContext, invalidIDs: Set<String>)
        -> (RedoCode, String, Bool)?
    {
        let node = nodes[index]
        var pendingVerdict: (RedoCode, String, Bool)?
        var maxParentLamport: Int64 = 0
        for (parent, parentIndex) in zip(node.parents, parentPositions(of: index)) {
            guard parentIndex >= 0 else {
                if invalidIDs.contains(parent.description) {
                    return (.ancestorRejected, "parent \(parent) is invalid", false)
                }
                pendingVerdict = pendingVerdict ?? (.parentNotFound, "parent \(parent) not present", true)
                continue
            }
            let parentNode = nodes[parentIndex]
            if parentNode.taskID != node.taskID {
                return (.parentNotFound, "parent \(parent) belongs to another task", false)
            }
            switch status[parentIndex] {
            case .rejected: return (.ancestorRejected, "parent \(parent) rejected", false)
            case .pending: pendingVerdict = pendingVerdict ?? (.ancestorPending, "parent \(parent) pending", true)
            case .unprocessed: return (.lamportViolation, "parent \(parent) sorts after its child", false)
            case .accepted:
                if parentNode.action == .delete {
                    return (.descendantOfDelete, "parent \(parent) is a DELETE tombstone", false)
                }
            }
            maxParentLamport = max(maxParentLamport, parentNode.lamport)
        }
        if let pendingVerdict { return pendingVerdict }
        return contextualCheck(node, index: index, maxParentLamport: maxParentLamport, context: &context)
    }

    /// Spec §6.3 checks for a node whose parents are all accepted.
    private func contextualCheck(_ node: RedoNode, index: Int, maxParentLamport: Int64, context: inout TaskContext)
        -> (RedoCode, String, Bool)?
    {
        if node.action == .create {
            if context.hasCreate { return (.duplicateCreate, "a CREATE sorting earlier exists", false) }
            context.hasCreate = true
            return nil
        }
        guard node.lamport == maxParentLamport + 1 else {
            return (.lamportViolation, "lamport must be \(maxParentLamport + 1)", false)
        }
        switch node.payload {
        case .createTodo(let todo, _, _):
            if context.createdTodos.contains(todo) { return (.invalidTodoRef, "todoTaskId already used in this task", false) }
            context.createdTodos.insert(todo)
        case .completeTodo(let todo, _, _), .snooze(let todo, _, _):
            if !context.createdTodos.contains(todo) {
                return (.invalidTodoRef, "todoTaskId not created by a create-todo node", false)
            }
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
        case .create, .update, .archive, .unarchive:
            break
        }
        return nil
    }

    /// MERGE context rules (spec §6.3): `base` is a strict ancestor of every parent, and every
    /// `chosenParent` is one of the parents.
    private func mergeProblem(_ node: RedoNode, spec: MergeSpec) -> String? {
        guard let basePosition = position(of: spec.base) else { return "merge base is not an ancestor of every parent" }
        for parent in node.parents {
            guard let parentPosition = position(of: parent), ancestorPositions(of: parentPosition).contains(basePosition)
            else { return "merge base is not an ancestor of every parent" }
        }
        let chosen = spec.taskResolutions.compactMap(\.chosenParent)
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
