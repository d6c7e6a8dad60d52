/// Per-node flags reused across tasks, so reconstruction allocates nothing per task for them.
/// Each task clears exactly the entries it set before the next task runs.
struct ReconstructionScratch {
    var live: [Bool]
    var hasLiveChild: [Bool]

    init(count: Int) {
        live = [Bool](repeating: false, count: count)
        hasLiveChild = [Bool](repeating: false, count: count)
    }
}

extension Replayer {
    /// Spec §7.2 steps 3–5 for one task: tombstones, live set, pruned nodes, then state.
    ///
    /// Live = surviving nodes and all their ancestors. Walking accepted nodes backwards in total
    /// order sees every child before its parents, so one reverse pass propagates liveness.
    func reconstruct(
        _ taskID: TaskID, accepted: [Int], scratch: inout ReconstructionScratch,
        into result: inout ReplayResult
    ) {
        var deletedChain: Set<NodeID> = []
        for index in accepted where action(at: index) == .delete {
            if case .delete(let chain) = node(at: index).payload {
                result.tombstones.append(ids[index])
                deletedChain.formUnion(chain)
            }
        }
        var anySurviving = false
        for index in accepted.reversed() {
            if action(at: index) == .delete { continue }
            let surviving = deletedChain.isEmpty || !deletedChain.contains(ids[index])
            anySurviving = anySurviving || surviving
            guard surviving || scratch.live[index] else { continue }
            scratch.live[index] = true
            for parentIndex in parentPositions(of: index) where parentIndex >= 0 { scratch.live[parentIndex] = true }
        }
        var liveInOrder: [Int] = []
        liveInOrder.reserveCapacity(accepted.count)
        for index in accepted {
            if scratch.live[index] {
                liveInOrder.append(index)
            } else if action(at: index) != .delete {
                result.pruned.append(ids[index])
            }
        }
        defer {
            for index in accepted {
                scratch.live[index] = false
                scratch.hasLiveChild[index] = false
            }
        }
        guard anySurviving, var task = replayState(of: liveInOrder) else {
            result.deletedTasks.append(taskID)
            return
        }
        for index in liveInOrder {
            for parentIndex in parentPositions(of: index) where parentIndex >= 0 {
                scratch.hasLiveChild[parentIndex] = true
            }
        }
        task.heads = liveInOrder.filter { !scratch.hasLiveChild[$0] }.map { ids[$0] }
        if let last = liveInOrder.last { task.latestNodeID = ids[last] }
        result.tasks.append(task)
    }

    /// Applies the effects of spec §5 to accepted nodes given in total order, starting from their
    /// CREATE (always first: every other node descends from it). A complete-todo or SNOOZE whose
    /// todo is not in this replay is a no-op (§7.2 step 4).
    func replayState(of positions: [Int]) -> RedoTask? {
        guard let first = positions.first, case .create(let fields) = node(at: first).payload else { return nil }
        var task = RedoTask(create: node(at: first), fields: fields)
        for index in positions.dropFirst() {
            let node = node(at: index)
            apply(node, to: &task)
            if node.wall > task.updated { task.updated = node.wall }
        }
        return task
    }

    /// hydrate(X) of spec §9: the state after replaying X and its ancestors in total order.
    func hydrate(_ id: NodeID) -> RedoTask? {
        guard let index = position(of: id) else { return nil }
        var positions = Array(ancestorPositions(of: index))
        positions.append(index)
        positions.sort()
        return replayState(of: positions)
    }

    private func apply(_ node: RedoNode, to task: inout RedoTask) {
        switch node.payload {
        case .create:
            break
        case .update(let fields):
            if let title = fields.title { task.title = title }
            if let description = fields.description { task.description = description }
            if let privacy = fields.privacy { task.privacy = privacy }
            if let storyPoints = fields.storyPoints { task.storyPoints = storyPoints }
            if let priority = fields.priority { task.priority = priority }
            if let frequencyDays = fields.frequencyDays { task.frequencyDays = frequencyDays }
        case .createTodo(let guid, let deadline, let notes):
            task.todos.append(
                TodoTask(
                    guid: guid, nodeID: node.id, lamport: node.lamport, wall: node.wall,
                    deadline: deadline, notes: notes ?? "", completed: nil))
        case .completeTodo(let guid, let completed, let notes):
            guard let todo = task.todoIndex(guid) else { return }
            task.todos[todo].completed = completed
            Self.appendNotes(notes, to: &task.todos[todo].notes)
        case .snooze(let guid, let change, let notes):
            guard let todo = task.todoIndex(guid) else { return }
            switch change {
            case .newDeadline(let deadline):
                task.todos[todo].deadline = deadline
            case .extendByDays(let days):
                // RES-10: N × 86 400 s in UTC; a deadline the format cannot write leaves it unchanged.
                if let moved = task.todos[todo].deadline.adding(days: days) { task.todos[todo].deadline = moved }
            }
            Self.appendNotes(notes, to: &task.todos[todo].notes)
        case .archive:
            task.archived = true
        case .unarchive:
            task.archived = false
        case .delete:
            break
        case .merge(let spec):
            MergeResolver(replayer: self, merge: node, spec: spec).apply(to: &task)
        }
    }

    /// RES-8: notes are appended, newline-separated, skipping empty strings.
    static func appendNotes(_ notes: String?, to existing: inout String) {
        guard let notes, !notes.isEmpty else { return }
        existing = existing.isEmpty ? notes : existing + "\n" + notes
    }
}
