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

    /// The input, and for each position in total order the input index of the node kept there
    /// (one copy per id): the nodes are read in place, not copied into a second array, so a
    /// million-node replay does not touch a million objects again just to retain them.
    let input: [RedoNode]
    let order: [Int]
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
    /// Parents of the node at position p: `parentIDs/parentPositions[parentStarts[p]..<parentEnds[p]]`
    /// (kept in input order), position −1 for a parent that is not present. Resolved once, used
    /// by every later pass.
    let parentStarts: [Int]
    let parentEnds: [Int]
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
    func node(at position: Int) -> RedoNode { input[order[position]] }

    /// The action of the node at `position`.
    func action(at position: Int) -> RedoAction { facts[position].action }

    /// What replay needs of each node, copied out in one pass over the input (in input order,
    /// the order the node objects were made in): every later pass reads these arrays, not the
    /// objects, which at a million nodes are a cache miss each.
    private struct InputFacts {
        var keys: [(key: RedoNode.OrderKey, index: Int)] = []
        var actions: [RedoAction] = []
        var todos: [TodoID?] = []
        var taskIDs: [TaskID] = []
        /// Parents of input node i: `parents[parentStarts[i]..<parentStarts[i + 1]]`.
        var parentStarts: [Int] = [0]
        var parents: [NodeID] = []

        init(_ input: [RedoNode]) {
            keys.reserveCapacity(input.count)
            actions.reserveCapacity(input.count)
            todos.reserveCapacity(input.count)
            taskIDs.reserveCapacity(input.count)
            parentStarts.reserveCapacity(input.count + 1)
            parents.reserveCapacity(input.count)
            for index in input.indices {
                let node = input[index].storage
                keys.append(
                    (
                        RedoNode.OrderKey(lamport: node.lamport, wall: node.wall.millisecondsSinceEpoch, id: node.id),
                        index
                    ))
                actions.append(node.payload.action)
                todos.append(node.payload.todo)
                taskIDs.append(node.taskID)
                parents.append(contentsOf: node.parents)
                parentStarts.append(parents.count)
            }
        }
    }

    public init(nodes input: [RedoNode]) {
        var facts = InputFacts(input)
        // Sort plain keys, not nodes; equal ids are equal content, so duplicates end up adjacent.
        facts.keys.sort { $0.key < $1.key }
        var ids: [NodeID] = []
        ids.reserveCapacity(input.count)
        var order: [Int] = []
        order.reserveCapacity(input.count)
        // Each kept node's lamport now; its action and task ordinal in the pass below.
        var positionFacts: [PositionFacts] = []
        positionFacts.reserveCapacity(input.count)
        // Every input index's position; the copies of a duplicate share their kept copy's.
        var positionOf = [Int](repeating: 0, count: input.count)
        for (key, inputIndex) in facts.keys {
            if key.id != ids.last {
                ids.append(key.id)
                order.append(inputIndex)
                positionFacts.append(PositionFacts(lamport: key.lamport, ordinal: 0, action: .create))
            }
            positionOf[inputIndex] = ids.count - 1
        }
        let index = NodeIndex(ids: ids)
        let count = ids.count

        // In input order again, over the copied facts, writing each kept node's at its position
        // (a duplicate's facts are its kept copy's).
        var todos = [TodoID?](repeating: nil, count: count)
        var parentStarts = [Int](repeating: 0, count: count)
        var parentEnds = [Int](repeating: 0, count: count)
        var parentPositions = [Int](repeating: -1, count: facts.parents.count)
        var ordinalOf: [TaskID: Int] = [:]
        var taskIDs: [TaskID] = []
        // A node's parent is most often the node read just before it (a log written and read
        // in order); that parent's position and task come without a hash lookup.
        var previous: (id: NodeID, position: Int, taskID: TaskID)?
        for inputIndex in input.indices {
            let position = positionOf[inputIndex]
            guard order[position] == inputIndex else { continue }
            let taskID = facts.taskIDs[inputIndex]
            positionFacts[position].action = facts.actions[inputIndex]
            todos[position] = facts.todos[inputIndex]
            let parents = facts.parentStarts[inputIndex]..<facts.parentStarts[inputIndex + 1]
            parentStarts[position] = parents.lowerBound
            parentEnds[position] = parents.upperBound
            var sameTaskParent: Int?
            for slot in parents {
                let parent = facts.parents[slot]
                if let previous, previous.id == parent {
                    parentPositions[slot] = previous.position
                    if previous.taskID == taskID { sameTaskParent = previous.position }
                } else {
                    parentPositions[slot] = index.position(of: parent, in: ids) ?? -1
                }
            }
            // Every node of a task gets the ordinal its task's first node read was given.
            if let sameTaskParent {
                positionFacts[position].ordinal = positionFacts[sameTaskParent].ordinal
            } else if let ordinal = ordinalOf[taskID] {
                positionFacts[position].ordinal = ordinal
            } else {
                ordinalOf[taskID] = taskIDs.count
                positionFacts[position].ordinal = taskIDs.count
                taskIDs.append(taskID)
            }
            previous = (ids[position], position, taskID)
        }
        self.input = input
        self.order = order
        self.ids = ids
        self.index = index
        self.facts = positionFacts
        self.todos = todos
        self.taskIDs = taskIDs
        self.parentStarts = parentStarts
        self.parentEnds = parentEnds
        self.parentIDs = facts.parents
        self.parentPositions = parentPositions
    }

    /// The position of a node in the total order, if present.
    func position(of id: NodeID) -> Int? { index.position(of: id, in: ids) }

    /// Positions of the parents of the node at `position` (−1 = absent).
    func parentPositions(of position: Int) -> ArraySlice<Int> {
        parentPositions[parentStarts[position]..<parentEnds[position]]
    }

    /// Replays the nodes; `standaloneRejections` are nodes that failed §6.2 (their children are
    /// rejected too and they appear in `rejected`).
    public static func replay(_ nodes: [RedoNode], standaloneRejections: [NodeVerdict] = []) -> ReplayResult {
        Replayer(nodes: nodes).replay(standaloneRejections: standaloneRejections)
    }

    public func replay(standaloneRejections: [NodeVerdict] = []) -> ReplayResult {
        var result = ReplayResult()
        result.accepted.reserveCapacity(ids.count)
        let invalidIDs = Set(standaloneRejections.map(\.id))
        var status = [Status](repeating: .unprocessed, count: ids.count)
        var contexts = taskIDs.map { TaskContext(taskID: $0) }
        for position in ids.indices {
            let ordinal = facts[position].ordinal
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
        var scratch = ReconstructionScratch(count: ids.count)
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
        for offset in parentStarts[index]..<parentEnds[index] {
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
