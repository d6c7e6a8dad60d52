/// Rebuilds task state from nodes (spec §7): per task, classify its nodes in total order, then
/// find the live set and replay it.
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

    /// The nodes and what replay reads of them, task by task (``ReplayFacts``).
    let log: ReplayFacts

    /// The node at `position` in total order.
    func node(at position: Int) -> RedoNode { log.node(at: position) }

    public init(nodes input: [RedoNode]) {
        self.init(facts: ReplayFacts(nodes: input))
    }

    /// Replays facts built beforehand, as nodes were stored (issue 49 item 1).
    public init(facts log: ReplayFacts) {
        self.log = log
    }

    /// The position of a node in the total order, if present.
    func position(of id: NodeID) -> Int? { log.index.position(of: id, in: log.ids) }

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
    /// read), so each task's run, taken in total order, gives the verdicts a pass over the whole
    /// order gives, and the facts read for every node lie in its task's run (ids are read from
    /// the total order only to name a node in a verdict, to check a DELETE's or MERGE's ids, and
    /// to build the accepted list).
    public func replay(standaloneRejections: [NodeVerdict] = []) -> ReplayResult {
        var result = ReplayResult()
        let invalidIDs = Set(standaloneRejections.map(\.id))
        var status: [Status] = []
        var notAccepted: [Int] = []
        var context = TaskContext()
        var accepted: [Int] = []
        var scratch = ReconstructionScratch()
        result.tasks.reserveCapacity(log.runs.count)
        for ordinal in log.runs.indices {
            let run = log.runs[ordinal]
            context.reset()
            accepted.removeAll(keepingCapacity: true)
            status.removeAll(keepingCapacity: true)
            status.append(contentsOf: repeatElement(.unprocessed, count: run.slots.count))
            for slot in run.slots.indices {
                switch classify(slot, in: run, status: status, context: &context, invalidIDs: invalidIDs) {
                case nil:
                    status[slot] = .accepted
                    accepted.append(slot)
                case .some(let (code, detail, isPending)):
                    status[slot] = isPending ? .pending : .rejected
                    let position = Int(run.slots[slot].position)
                    notAccepted.append(position)
                    let entry = NodeVerdict(id: log.ids[position].description, code: code, detail: detail)
                    if isPending { result.pending.append(entry) } else { result.rejected.append(entry) }
                }
            }
            if !accepted.isEmpty {
                reconstruct(log.taskIDs[ordinal], run: run, accepted: accepted, scratch: &scratch, into: &result)
            }
        }
        result.accepted = acceptedInOrder(leavingOut: notAccepted)
        // A copy that failed standalone checks does not outweigh a valid node with the same id.
        result.rejected += standaloneRejections.filter { rejection in
            NodeID(rejection.id).map { position(of: $0) == nil } ?? true
        }
        result.sortIntoReportOrder()
        return result
    }

    /// Every id in total order but those at `positions`: copied in spans, since most nodes are
    /// accepted. When every node is, the facts' own array is the answer, shared rather than
    /// copied (at a million nodes, 32 MB that would be written to fresh pages on every replay).
    private func acceptedInOrder(leavingOut positions: [Int]) -> [NodeID] {
        if positions.isEmpty { return log.ids }
        var accepted: [NodeID] = []
        accepted.reserveCapacity(log.ids.count - positions.count)
        var start = 0
        for position in positions.sorted() {
            accepted += log.ids[start..<position]
            start = position + 1
        }
        accepted += log.ids[start...]
        return accepted
    }

    /// The id of the node in `slot` of `run`.
    func id(_ slot: Int, in run: ReplayFacts.TaskRun) -> NodeID { log.ids[Int(run.slots[slot].position)] }

    /// nil = accepted; otherwise the code, detail and whether the node is pending (spec §7.2 step 2).
    private func classify(
        _ slot: Int, in run: ReplayFacts.TaskRun, status: [Status], context: inout TaskContext, invalidIDs: Set<String>
    ) -> (RedoCode, String, Bool)? {
        var pendingVerdict: (RedoCode, String, Bool)?
        var maxParentLamport: Int64 = 0
        let range = run.parentRange(of: slot)
        for offset in range {
            let parent = run.parents[offset]
            guard parent >= 0 else {
                let parentID = log.parentIDs[
                    log.parentStarts[Int(run.slots[slot].position)] + offset - range.lowerBound]
                if parent == ReplayFacts.elsewhere {
                    return (.parentNotFound, "parent \(parentID) belongs to another task", false)
                }
                if invalidIDs.contains(parentID.description) {
                    return (.ancestorRejected, "parent \(parentID) is invalid", false)
                }
                pendingVerdict = pendingVerdict ?? (.parentNotFound, "parent \(parentID) not present", true)
                continue
            }
            let parentSlot = Int(parent)
            switch status[parentSlot] {
            case .rejected: return (.ancestorRejected, "parent \(id(parentSlot, in: run)) rejected", false)
            case .pending:
                pendingVerdict = pendingVerdict ?? (.ancestorPending, "parent \(id(parentSlot, in: run)) pending", true)
            case .unprocessed:
                return (.lamportViolation, "parent \(id(parentSlot, in: run)) sorts after its child", false)
            case .accepted:
                if run.slots[parentSlot].action == .delete {
                    return (.descendantOfDelete, "parent \(id(parentSlot, in: run)) is a DELETE tombstone", false)
                }
            }
            maxParentLamport = max(maxParentLamport, run.slots[parentSlot].lamport)
        }
        if let pendingVerdict { return pendingVerdict }
        return contextualCheck(slot, in: run, maxParentLamport: maxParentLamport, context: &context)
    }

    /// Spec §6.3 checks for a node whose parents are all accepted.
    private func contextualCheck(
        _ slot: Int, in run: ReplayFacts.TaskRun, maxParentLamport: Int64, context: inout TaskContext
    ) -> (RedoCode, String, Bool)? {
        let facts = run.slots[slot]
        if facts.action == .create {
            if context.hasCreate { return (.duplicateCreate, "a CREATE sorting earlier exists", false) }
            context.hasCreate = true
            return nil
        }
        guard facts.lamport == maxParentLamport + 1 else {
            return (.lamportViolation, "lamport must be \(maxParentLamport + 1)", false)
        }
        switch facts.action {
        case .create, .update, .archive, .unarchive: return nil
        case .createTodo:
            guard let todo = run.payloads[slot].todo, context.createdTodos.insert(todo).inserted else {
                return (.invalidTodoRef, "todoTaskId already used in this task", false)
            }
            return nil
        case .completeTodo, .snooze:
            guard let todo = run.payloads[slot].todo, context.createdTodos.contains(todo) else {
                return (.invalidTodoRef, "todoTaskId not created by a create-todo node", false)
            }
            return nil
        case .delete, .merge: break
        }
        switch run.nodes[slot].payload {
        case .delete(let chain):
            let ancestors = ancestorPositions(of: slot, in: run)
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
            if let problem = mergeProblem(run.nodes[slot], spec: spec) { return (.schemaMismatch, problem, false) }
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

    /// Positions in total order of the strict ancestors of the node at `position` within its own
    /// task's run. For an accepted node (every caller's) those are all of its ancestors: an
    /// accepted node's parents are accepted and of its task.
    func ancestorPositions(of position: Int) -> Set<Int> {
        let place = log.places[position]
        return ancestorPositions(of: Int(place.slot), in: log.runs[Int(place.ordinal)])
    }

    /// Positions in total order of the ancestors of `slot` within `run`.
    func ancestorPositions(of slot: Int, in run: ReplayFacts.TaskRun) -> Set<Int> {
        Set(ancestorSlots(of: slot, in: run).map { Int(run.slots[$0].position) })
    }

    /// Slots of `run` that are strict ancestors of `slot` there.
    func ancestorSlots(of slot: Int, in run: ReplayFacts.TaskRun) -> Set<Int> {
        var found: Set<Int> = []
        var stack = [slot]
        while let current = stack.popLast() {
            for offset in run.parentRange(of: current) where run.parents[offset] >= 0 {
                let parent = Int(run.parents[offset])
                if found.insert(parent).inserted { stack.append(parent) }
            }
        }
        return found
    }
}
