/// Per-slot flags reused across tasks, so reconstruction allocates nothing per task for them.
/// Each task clears exactly the entries it set before the next task runs.
struct ReconstructionScratch {
    var live: [Bool] = []
    var hasLiveChild: [Bool] = []

    /// Room for a run of `count` slots, every flag false.
    mutating func prepare(_ count: Int) {
        guard live.count < count else { return }
        live += repeatElement(false, count: count - live.count)
        hasLiveChild += repeatElement(false, count: count - hasLiveChild.count)
    }
}

extension Replayer {
    /// Spec §7.2 steps 3–5 for one task: tombstones, live set, pruned nodes, then state.
    /// `accepted` are slots of `run`, in total order.
    ///
    /// Live = surviving nodes and all their ancestors. Walking accepted nodes backwards in total
    /// order sees every child before its parents, so one reverse pass propagates liveness.
    func reconstruct(
        _ taskID: TaskID, run: ReplayFacts.TaskRun, accepted: [Int], scratch: inout ReconstructionScratch,
        into result: inout ReplayResult
    ) {
        scratch.prepare(run.slots.count)
        var deletedChain: Set<NodeID> = []
        for slot in accepted where run.slots[slot].action == .delete {
            if case .delete(let chain) = run.payloads[slot] {
                result.tombstones.append(id(slot, in: run))
                deletedChain.formUnion(chain)
            }
        }
        var anySurviving = false
        for slot in accepted.reversed() {
            if run.slots[slot].action == .delete { continue }
            let surviving = deletedChain.isEmpty || !deletedChain.contains(id(slot, in: run))
            anySurviving = anySurviving || surviving
            guard surviving || scratch.live[slot] else { continue }
            scratch.live[slot] = true
            for offset in run.parentRange(of: slot) where run.parents[offset] >= 0 {
                scratch.live[Int(run.parents[offset])] = true
            }
        }
        var liveInOrder: [Int] = []
        liveInOrder.reserveCapacity(accepted.count)
        for slot in accepted {
            if scratch.live[slot] {
                liveInOrder.append(slot)
            } else if run.slots[slot].action != .delete {
                result.pruned.append(id(slot, in: run))
            }
        }
        defer {
            for slot in accepted {
                scratch.live[slot] = false
                scratch.hasLiveChild[slot] = false
            }
        }
        guard anySurviving, var task = replayState(of: liveInOrder, in: run, taskID: taskID) else {
            result.deletedTasks.append(taskID)
            return
        }
        for slot in liveInOrder {
            for offset in run.parentRange(of: slot) where run.parents[offset] >= 0 {
                scratch.hasLiveChild[Int(run.parents[offset])] = true
            }
        }
        task.heads = liveInOrder.filter { !scratch.hasLiveChild[$0] }.map { id($0, in: run) }
        if let last = liveInOrder.last { task.latestNodeID = id(last, in: run) }
        result.tasks.append(task)
    }

    /// Applies the effects of spec §5 to accepted nodes given in total order, starting from their
    /// CREATE (always first: every other node descends from it). A complete-todo or SNOOZE whose
    /// todo is not in this replay is a no-op (§7.2 step 4).
    ///
    /// The CREATE's facts give the task its id, author, time and first head: its node is not
    /// opened (at a million nodes, each would be a read from a cold page).
    func replayState(of slots: [Int], in run: ReplayFacts.TaskRun, taskID: TaskID) -> RedoTask? {
        guard let first = slots.first, case .create(let fields) = run.payloads[first] else { return nil }
        let create = run.slots[first]
        var task = RedoTask(
            taskID: taskID, createdBy: log.creators[Int(create.creator)], created: create.wall,
            createID: log.ids[Int(create.position)], fields: fields)
        // Room for every todo at once: grown one append at a time, the array would be allocated
        // again for the second.
        task.todos.reserveCapacity(slots.count { run.slots[$0].action == .createTodo })
        for slot in slots.dropFirst() {
            apply(slot, in: run, to: &task)
            if run.slots[slot].wall > task.updated { task.updated = run.slots[slot].wall }
        }
        return task
    }

    /// hydrate(X) of spec §9: the state after replaying X and its ancestors in total order.
    func hydrate(_ id: NodeID) -> RedoTask? {
        guard let position = position(of: id) else { return nil }
        let place = log.places[position]
        let run = log.runs[Int(place.ordinal)]
        var slots = Array(ancestorSlots(of: Int(place.slot), in: run))
        slots.append(Int(place.slot))
        slots.sort()
        return replayState(of: slots, in: run, taskID: log.taskIDs[Int(place.ordinal)])
    }

    private func apply(_ slot: Int, in run: ReplayFacts.TaskRun, to task: inout RedoTask) {
        switch run.payloads[slot] {
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
                    guid: guid, nodeID: id(slot, in: run), lamport: run.slots[slot].lamport, wall: run.slots[slot].wall,
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
            MergeResolver(replayer: self, merge: run.nodes[slot], spec: spec).apply(to: &task)
        }
    }

    /// RES-8: notes are appended, newline-separated, skipping empty strings.
    static func appendNotes(_ notes: String?, to existing: inout String) {
        guard let notes, !notes.isEmpty else { return }
        existing = existing.isEmpty ? notes : existing + "\n" + notes
    }
}
