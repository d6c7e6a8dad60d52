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
    /// Hot per-node facts copied out of the nodes in one pass, so the classification loop reads
    /// contiguous arrays instead of chasing a million boxes.
    let lamports: [Int64]
    let actions: [RedoAction]
    let taskOrdinals: [Int]
    let taskIDs: [TaskID]
    /// Parents of node i: `parentIDs/parentPositions[parentOffsets[i]..<parentOffsets[i + 1]]`,
    /// position −1 for a parent that is not present. Resolved once, used by every later pass.
    let parentOffsets: [Int]
    let parentIDs: [NodeID]
    let parentPositions: [Int]

    public init(nodes input: [RedoNode]) {
        // Sort plain keys, not nodes; equal ids are equal content, so duplicates end up adjacent.
        var keys: [(key: RedoNode.OrderKey, index: Int)] = []
        keys.reserveCapacity(input.count)
        for index in input.indices { keys.append((input[index].orderKey, index)) }
        keys.sort { $0.key < $1.key }
        var ids: [NodeID] = []
        ids.reserveCapacity(input.count)
        var order: [Int] = []
        order.reserveCapacity(input.count)
        for (key, index) in keys where key.id != ids.last {
            ids.append(key.id)
            order.append(index)
        }
        let index = NodeIndex(ids: ids)
        var unique: [RedoNode] = []
        var lamports: [Int64] = []
        var actions: [RedoAction] = []
        var ordinals: [Int] = []
        var offsets: [Int] = [0]
        var parentIDs: [NodeID] = []
        var parentPositions: [Int] = []
        var ordinalOf: [TaskID: Int] = [:]
        var taskIDs: [TaskID] = []
        unique.reserveCapacity(ids.count)
        lamports.reserveCapacity(ids.count)
        actions.reserveCapacity(ids.count)
        ordinals.reserveCapacity(ids.count)
        offsets.reserveCapacity(ids.count + 1)
        parentIDs.reserveCapacity(ids.count)
        parentPositions.reserveCapacity(ids.count)
        for inputIndex in order {
            let node = input[inputIndex]
            lamports.append(node.lamport)
            actions.append(node.action)
            var parentOrdinal: Int?
            for parent in node.parents {
                let position = index.position(of: parent, in: ids) ?? -1
                parentIDs.append(parent)
                parentPositions.append(position)
                // A parent sorts earlier, so its task ordinal is known; most nodes reuse it.
                if parentOrdinal == nil, position >= 0, position < ordinals.count { parentOrdinal = ordinals[position] }
            }
            offsets.append(parentIDs.count)
            let taskID = node.taskID
            if let parentOrdinal, taskIDs[parentOrdinal] == taskID {
                ordinals.append(parentOrdinal)
            } else if let ordinal = ordinalOf[taskID] {
                ordinals.append(ordinal)
            } else {
                ordinalOf[taskID] = taskIDs.count
                ordinals.append(taskIDs.count)
                taskIDs.append(taskID)
            }
            unique.append(node)
        }
        self.nodes = unique
        self.ids = ids
        self.index = index
        self.lamports = lamports
        self.actions = actions
        self.taskOrdinals = ordinals
        self.taskIDs = taskIDs
        self.parentOffsets = offsets
        self.parentIDs = parentIDs
        self.parentPositions = parentPositions
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
        var contexts = taskIDs.map { TaskContext(taskID: $0) }
        for position in nodes.indices {
            let ordinal = taskOrdinals[position]
            let verdict = classify(position, status: status, context: &contexts[ordinal], invalidIDs: invalidIDs)
            switch verdict {
            case nil:
                status[position] = .accepted
                contexts[ordinal].accepted.append(position)
                result.accepted.append(ids[position])
            case .some(let (code, detail, isPending)):
                status[position] = isPending ? .pending : .rejected
                let entry = NodeVerdict(id: ids[position].description, code: code, detail: detail)
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
        result.sortIntoReportOrder()
        return result
    }

    /// nil = accepted; otherwise the code, detail and whether the node is pending (spec §7.2 step 2).
    private func classify(_ index: Int, status: [Status], context: inout TaskContext, invalidIDs: Set<String>)
        -> (RedoCode, String, Bool)?
    {
        var pendingVerdict: (RedoCode, String, Bool)?
        var maxParentLamport: Int64 = 0
        for offset in parentOffsets[index]..<parentOffsets[index + 1] {
            let parentIndex = parentPositions[offset]
            guard parentIndex >= 0 else {
                let parent = parentIDs[offset]
                if invalidIDs.contains(parent.description) {
                    return (.ancestorRejected, "parent \(parent) is invalid", false)
                }
                pendingVerdict = pendingVerdict ?? (.parentNotFound, "parent \(parent) not present", true)
                continue
            }
            if taskOrdinals[parentIndex] != taskOrdinals[index] {
                return (.parentNotFound, "parent \(ids[parentIndex]) belongs to another task", false)
            }
            switch status[parentIndex] {
            case .rejected: return (.ancestorRejected, "parent \(ids[parentIndex]) rejected", false)
            case .pending:
                pendingVerdict = pendingVerdict ?? (.ancestorPending, "parent \(ids[parentIndex]) pending", true)
            case .unprocessed: return (.lamportViolation, "parent \(ids[parentIndex]) sorts after its child", false)
            case .accepted:
                if actions[parentIndex] == .delete {
                    return (.descendantOfDelete, "parent \(ids[parentIndex]) is a DELETE tombstone", false)
                }
            }
            maxParentLamport = max(maxParentLamport, lamports[parentIndex])
        }
        if let pendingVerdict { return pendingVerdict }
        return contextualCheck(index, maxParentLamport: maxParentLamport, context: &context)
    }

    /// Spec §6.3 checks for a node whose parents are all accepted.
    private func contextualCheck(_ index: Int, maxParentLamport: Int64, context: inout TaskContext)
        -> (RedoCode, String, Bool)?
    {
        let action = actions[index]
        if action == .create {
            if context.hasCreate { return (.duplicateCreate, "a CREATE sorting earlier exists", false) }
            context.hasCreate = true
            return nil
        }
        guard lamports[index] == maxParentLamport + 1 else {
            return (.lamportViolation, "lamport must be \(maxParentLamport + 1)", false)
        }
        switch action {
        case .create, .update, .archive, .unarchive: return nil
        default: break
        }
        let node = nodes[index]
        switch node.payload {
        case .createTodo(let todo, _, _):
            if context.createdTodos.contains(todo) {
                return (.invalidTodoRef, "todoTaskId already used in this task", false)
            }
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
