public import RedoApp
public import RedoProtocol

/// Offline task operations: each turns a user intent into signed nodes appended to the log
/// (the producer rules of spec §5), then reports the replayed state.
///
/// State comes from the log's projection, which each append updates in the same transaction, so
/// it always equals a full replay (spec §7) without replaying the whole log per command (issue 12
/// item 6). The clock is the caller's: operations take `now`.
public struct TaskEditor: Sendable {
    public let log: TaskLog
    public let identity: ProfileIdentity
    private let randomBytes: @Sendable (Int) -> [UInt8]

    public init(
        log: TaskLog, identity: ProfileIdentity,
        randomBytes: @escaping @Sendable (Int) -> [UInt8] = TaskEditor.systemRandomBytes
    ) {
        self.log = log
        self.identity = identity
        self.randomBytes = randomBytes
    }

    public static let systemRandomBytes: @Sendable (Int) -> [UInt8] = { count in
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The replayed state of the whole log.
    public func state() throws -> ReplayResult {
        try log.replay()
    }

    /// The live tasks, as `state().tasks` has them, without decoding or merging node lists.
    public func liveTasks() throws -> [RedoTask] {
        try log.liveTasks()
    }

    /// The live tasks' summaries, by task id, from the projection's columns (what a list reads).
    public func liveSummaries() throws -> [TaskSummary] {
        try log.liveSummaries()
    }

    /// Adds a task as CREATE + create-todo in one transaction (spec §5 producer rules). Without
    /// `due`, the first todo is due `frequencyDays` after `now` (a one-time task's after the
    /// spec's default frequency). Fields left nil take the spec's defaults (RES-7) and are left
    /// out of the CREATE. `once` writes a task done once (``OneTimeTask``); it has no frequency.
    @discardableResult
    public func addTask(
        title: String, description: String? = nil, priority: Int64? = nil, storyPoints: Int64? = nil,
        privacy: Bool? = nil, due: WallTime? = nil, everyDays: Int64? = nil, once: Bool = false, now: WallTime
    ) throws -> RedoTask {
        if once, everyDays != nil {
            throw TaskStoreError.invalidField(name: "every", reason: "a task done once does not repeat")
        }
        let frequency = once ? OneTimeTask.frequencyDays : everyDays
        let fields = TaskFieldChanges(
            title: title, description: description.flatMap { $0.isEmpty ? nil : $0 }, privacy: privacy,
            storyPoints: storyPoints, priority: priority, frequencyDays: frequency)
        try Self.check(fields)
        let taskID = TaskID(randomBytes: randomBytes(16))
        let create = try sign(
            NodeDraft(
                taskID: taskID, action: .create, payload: try NodePayload.create(fields).jsonObject(), parents: [],
                lamport: 1, wall: now, author: identity.author))
        let deadline = due ?? now.adding(days: everyDays ?? Self.defaultFrequencyDays) ?? now
        let todo = try sign(todoDraft(taskID: taskID, parent: create, deadline: deadline, now: now))
        return try Self.task(taskID, in: log.appendReturningTasks([create, todo]))
    }

    /// Completes the current todo and schedules the next one `frequencyDays` after completion:
    /// two nodes, nothing implicit during replay (spec §5, [SWIFT-8]). A one-time task
    /// (``OneTimeTask``) is archived instead: the ARCHIVE is the completion's child.
    @discardableResult
    public func complete(_ reference: String, now: WallTime) throws -> RedoTask {
        let context = try EditContext(editor: self, reference: reference)
        guard let todo = context.task.currentTodo else { throw TaskStoreError.noCurrentTodo(task: reference) }
        let payload = try NodePayload.completeTodo(todo: todo.guid, completed: now, notes: nil).jsonObject()
        let completion = try sign(context.draft(.completeTodo, payload: payload, now: now))
        let followUp: NodeDraft
        if context.task.isOneTime {
            followUp = NodeDraft(
                taskID: context.task.taskID, action: .archive, payload: try NodePayload.archive.jsonObject(),
                parents: [completion.id], lamport: completion.lamport + 1, wall: now, author: identity.author)
        } else {
            let next = now.adding(days: context.task.frequencyDays) ?? now
            followUp = try todoDraft(taskID: context.task.taskID, parent: completion, deadline: next, now: now)
        }
        return try Self.task(context.task.taskID, in: log.appendReturningTasks([completion, try sign(followUp)]))
    }

    /// The spec's default frequency (RES-7): a new task's first deadline when none is given.
    static let defaultFrequencyDays: Int64 = 7

    /// Moves the current todo's deadline (SNOOZE with `newDeadline`).
    @discardableResult
    public func snooze(_ reference: String, until deadline: WallTime, now: WallTime) throws -> RedoTask {
        let context = try EditContext(editor: self, reference: reference)
        guard let todo = context.task.currentTodo else { throw TaskStoreError.noCurrentTodo(task: reference) }
        let payload = try NodePayload.snooze(todo: todo.guid, change: .newDeadline(deadline), notes: nil).jsonObject()
        let state = try log.appendReturningTasks([try sign(context.draft(.snooze, payload: payload, now: now))])
        return try Self.task(context.task.taskID, in: state)
    }

    /// Overwrites title and/or priority (UPDATE).
    @discardableResult
    public func edit(_ reference: String, title: String? = nil, priority: Int64? = nil, now: WallTime) throws
        -> RedoTask
    {
        try edit(reference, TaskChange(title: title, priority: priority), now: now)
    }

    /// Applies `change` (issue 27 item 1): the task's own fields by one UPDATE carrying only the
    /// fields that differ from the current state, then, for a new deadline or notes, one SNOOZE
    /// of the current todo (`newDeadline`, the current one when only notes are given; the notes
    /// are appended, spec RES-8) as the UPDATE's child. A change that changes nothing writes no
    /// node and returns the task as it is.
    @discardableResult
    public func edit(_ reference: String, _ change: TaskChange, now: WallTime) throws -> RedoTask {
        guard !change.isEmpty else { throw TaskStoreError.emptyEdit(task: reference) }
        try Self.check(change.fields)
        if let notes = change.notes, notes.isEmpty {
            throw TaskStoreError.invalidField(name: "notes", reason: "must not be empty")
        }
        let context = try EditContext(editor: self, reference: reference)
        let task = context.task
        let fields = change.fields.changing(task)
        var nodes: [RedoNode] = []
        if !fields.isEmpty {
            nodes.append(
                try sign(context.draft(.update, payload: try NodePayload.update(fields).jsonObject(), now: now)))
        }
        if change.due != nil || change.notes != nil {
            guard let todo = task.currentTodo else { throw TaskStoreError.noCurrentTodo(task: reference) }
            let deadline = change.due ?? todo.deadline
            if deadline != todo.deadline || change.notes != nil {
                let payload = try NodePayload.snooze(
                    todo: todo.guid, change: .newDeadline(deadline), notes: change.notes
                )
                .jsonObject()
                let draft: NodeDraft
                if let update = nodes.last {
                    draft = NodeDraft(
                        taskID: task.taskID, action: .snooze, payload: payload, parents: [update.id],
                        lamport: update.lamport + 1, wall: now, author: identity.author)
                } else {
                    draft = try context.draft(.snooze, payload: payload, now: now)
                }
                nodes.append(try sign(draft))
            }
        }
        guard !nodes.isEmpty else { return task }
        return try Self.task(task.taskID, in: log.appendReturningTasks(nodes))
    }

    /// ARCHIVE or UNARCHIVE.
    @discardableResult
    public func setArchived(_ reference: String, _ archived: Bool, now: WallTime) throws -> RedoTask {
        let context = try EditContext(editor: self, reference: reference)
        let payload: NodePayload = archived ? .archive : .unarchive
        let state = try log.appendReturningTasks([
            try sign(context.draft(payload.action, payload: try payload.jsonObject(), now: now))
        ])
        return try Self.task(context.task.taskID, in: state)
    }

    /// The live task an edit of `reference` would change (the same matching rules), for a
    /// person to see before agreeing to a delete.
    public func target(_ reference: String) throws -> RedoTask {
        try EditContext(editor: self, reference: reference).task
    }

    /// Deletes every branch: one DELETE per head, each listing all its ancestors root first
    /// (spec §7.4, RES-11), so the task leaves the state.
    public func delete(_ reference: String, now: WallTime) throws {
        let context = try EditContext(editor: self, reference: reference)
        var deletes: [RedoNode] = []
        for head in context.task.heads {
            guard let headNode = context.nodesByID[head] else { continue }
            let payload = NodePayload.delete(deletedChain: context.ancestry(of: headNode).map(\.id))
            let draft = NodeDraft(
                taskID: context.task.taskID, action: payload.action,
                payload: try payload.jsonObject(), parents: [head],
                lamport: headNode.lamport + 1, wall: now, author: identity.author)
            deletes.append(try sign(draft))
        }
        try log.append(deletes)
    }

    /// The task's stored valid nodes in total order (spec §7.1), pruned and tombstoned ones included.
    /// Deleted tasks have a history too, so the reference is matched against every stored task.
    public func history(_ reference: String) throws -> [RedoNode] {
        let nodes = try log.validNodes()
        let needle = reference.lowercased()
        let matches = Set(nodes.map(\.taskID)).filter { $0.description.hasPrefix(needle) }
        guard !needle.isEmpty, let taskID = matches.first(where: { $0.description == needle }) ?? matches.first else {
            throw TaskStoreError.unknownTask(reference)
        }
        guard matches.count == 1 || matches.contains(where: { $0.description == needle }) else {
            throw TaskStoreError.ambiguousTask(reference)
        }
        return nodes.filter { $0.taskID == taskID }.sorted(by: RedoNode.precedes)
    }

    /// The live state of one task.
    public func task(_ id: TaskID) throws -> RedoTask {
        guard let task = try log.liveTask(id) else { throw TaskStoreError.unknownTask(id.description) }
        return task
    }

    /// The task's live state from what an append returned (only the tasks it touched).
    private static func task(_ id: TaskID, in tasks: [TaskID: RedoTask]) throws -> RedoTask {
        guard let task = tasks[id] else { throw TaskStoreError.unknownTask(id.description) }
        return task
    }

    func sign(_ draft: NodeDraft) throws -> RedoNode {
        do {
            return try draft.node(signedWith: identity.key)
        } catch {
            throw TaskStoreError.invalidNode(error.description)
        }
    }

    private func todoDraft(taskID: TaskID, parent: RedoNode, deadline: WallTime, now: WallTime) throws -> NodeDraft {
        let payload = NodePayload.createTodo(todo: TodoID(randomBytes: randomBytes(16)), deadline: deadline, notes: nil)
        return NodeDraft(
            taskID: taskID, action: payload.action, payload: try payload.jsonObject(), parents: [parent.id],
            lamport: parent.lamport + 1, wall: now, author: identity.author)
    }

    /// The producer-side bounds of spec §5, each field's ``RedoField`` row: a non-empty title,
    /// priority 1–5, story points ≥ 0, a frequency of at least one day.
    static func check(_ fields: TaskFieldChanges) throws {
        for field in RedoField.taskPayloadFields {
            guard let value = fields.value(of: field), !field.accepts(value) else { continue }
            throw TaskStoreError.invalidField(name: optionNames[field] ?? field.key, reason: field.rule)
        }
    }

    /// The `tandem tasks` options that name a field otherwise than its key.
    private static let optionNames = [RedoField.storyPoints: "story-points", RedoField.frequencyDays: "every"]
}
