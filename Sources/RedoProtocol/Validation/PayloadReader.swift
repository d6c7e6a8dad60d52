import CanonicalJSON

/// Payload rules per action (spec §5, §6.2 step 4): no member beyond those listed; reserved names
/// are `E_FORBIDDEN_FIELD`, other unknown names `E_SCHEMA_MISMATCH`.
enum PayloadReader {

    static func read(_ object: JSONObject, action: RedoAction) throws(NodeValidationError) -> NodePayload {
        let payload = FieldReader(object, path: "payload")
        let reserved = NodeValidator.reservedPayloadNames
        switch action {
        case .create:
            try payload.rejectUnknownMembers(allowed: PayloadKey.taskFields, reserved: reserved)
            let fields = try taskFields(payload)
            guard fields.title != nil else { throw .schemaMismatch("payload.title is required for CREATE") }
            return .create(fields)
        case .update:
            try payload.rejectUnknownMembers(allowed: PayloadKey.taskFields, reserved: reserved)
            let fields = try taskFields(payload)
            guard !fields.isEmpty else { throw .schemaMismatch("UPDATE payload must change at least one field") }
            return .update(fields)
        case .createTodo:
            try payload.rejectUnknownMembers(
                allowed: [PayloadKey.todoTaskID, PayloadKey.deadline, PayloadKey.notes], reserved: reserved)
            return .createTodo(
                todo: try payload.requireTodoID(PayloadKey.todoTaskID),
                deadline: try payload.requireWallTime(PayloadKey.deadline),
                notes: try payload.string(PayloadKey.notes))
        case .completeTodo:
            try payload.rejectUnknownMembers(
                allowed: [PayloadKey.todoTaskID, PayloadKey.completed, PayloadKey.notes], reserved: reserved)
            return .completeTodo(
                todo: try payload.requireTodoID(PayloadKey.todoTaskID),
                completed: try payload.requireWallTime(PayloadKey.completed),
                notes: try payload.string(PayloadKey.notes))
        case .snooze:
            try payload.rejectUnknownMembers(
                allowed: [PayloadKey.todoTaskID, PayloadKey.daysToExtend, PayloadKey.newDeadline, PayloadKey.notes],
                reserved: reserved)
            let todo = try payload.requireTodoID(PayloadKey.todoTaskID)
            let days = try payload.integer(PayloadKey.daysToExtend, in: 1...RedoField.maxSafeInteger)
            let deadline = try payload.wallTime(PayloadKey.newDeadline)
            let notes = try payload.string(PayloadKey.notes)
            switch (days, deadline) {
            case (let days?, nil): return .snooze(todo: todo, change: .extendByDays(days), notes: notes)
            case (nil, let deadline?): return .snooze(todo: todo, change: .newDeadline(deadline), notes: notes)
            default: throw .schemaMismatch("SNOOZE needs exactly one of daysToExtend and newDeadline")
            }
        case .archive, .unarchive:
            try payload.rejectUnknownMembers(allowed: [], reserved: reserved)
            return action == .archive ? .archive : .unarchive
        case .delete:
            try payload.rejectUnknownMembers(allowed: [PayloadKey.deletedChain], reserved: reserved)
            guard let chain = try payload.array(PayloadKey.deletedChain), !chain.isEmpty else {
                throw .missingDeletedChain("DELETE needs a non-empty deletedChain")
            }
            var ids: [NodeID] = []
            for element in chain { ids.append(try FieldReader.nodeID(element, name: "payload.deletedChain[]")) }
            guard Set(ids).count == ids.count else { throw .schemaMismatch("payload.deletedChain has a duplicate") }
            return .delete(deletedChain: ids)
        case .merge:
            try payload.rejectUnknownMembers(
                allowed: [PayloadKey.base, PayloadKey.policy, PayloadKey.resolutions], reserved: reserved)
            return .merge(try MergeReader.read(payload))
        }
    }

    /// The task fields of a CREATE or UPDATE, each within its ``RedoField`` bounds.
    private static func taskFields(_ payload: FieldReader) throws(NodeValidationError) -> TaskFieldChanges {
        TaskFieldChanges(
            title: try payload.nonEmptyString(RedoField.title.key),
            description: try payload.string(RedoField.description.key),
            privacy: try payload.bool(RedoField.privacy.key),
            storyPoints: try payload.integer(RedoField.storyPoints.key, in: RedoField.storyPoints.range),
            priority: try payload.integer(RedoField.priority.key, in: RedoField.priority.range),
            frequencyDays: try payload.integer(RedoField.frequencyDays.key, in: RedoField.frequencyDays.range)
        )
    }
}

/// MERGE payload rules (spec §5): `base` required; `policy` and `resolutions` shapes.
enum MergeReader {
    static func read(_ payload: FieldReader) throws(NodeValidationError) -> MergeSpec {
        guard let base = try payload.nodeID(PayloadKey.base) else {
            throw .schemaMismatch("payload.base is required for MERGE")
        }
        var policy = MergePolicy()
        if let object = try payload.object(PayloadKey.policy) {
            let reader = FieldReader(object, path: "payload.policy")
            try reader.rejectUnknownMembers(allowed: [
                PayloadKey.defaultStrategy, PayloadKey.lwwTiebreakers, PayloadKey.arrayStrategy,
            ])
            if let strategy = try strategy(reader, PayloadKey.defaultStrategy) { policy.defaultStrategy = strategy }
            if let strategy = try strategy(reader, PayloadKey.arrayStrategy) {
                guard strategy == .union || strategy == .lww else {
                    throw .schemaMismatch("payload.policy.arrayStrategy must be union or lww")
                }
                policy.arrayStrategy = strategy
            }
            if let keys = try reader.array(PayloadKey.lwwTiebreakers) {
                var tiebreakers: [LWWTiebreaker] = []
                for key in keys {
                    guard case .string(let text) = key, let tiebreaker = LWWTiebreaker(rawValue: text) else {
                        throw .schemaMismatch("payload.policy.lwwTiebreakers holds an unknown key")
                    }
                    tiebreakers.append(tiebreaker)
                }
                policy.lwwTiebreakers = tiebreakers
            }
        }
        var taskResolutions: [FieldResolution] = []
        var todoResolutions: [TodoResolution] = []
        if let object = try payload.object(PayloadKey.resolutions) {
            let reader = FieldReader(object, path: "payload.resolutions")
            try reader.rejectUnknownMembers(allowed: [PayloadKey.task, PayloadKey.todos])
            taskResolutions = try fieldResolutions(
                reader.array(PayloadKey.task) ?? [], path: "payload.resolutions.task")
            for entry in try reader.array(PayloadKey.todos) ?? [] {
                guard case .object(let todoObject) = entry else {
                    throw .schemaMismatch("payload.resolutions.todos[] must be an object")
                }
                let todo = FieldReader(todoObject, path: "payload.resolutions.todos[]")
                try todo.rejectUnknownMembers(allowed: [PayloadKey.todoTaskID, PayloadKey.fields])
                let id = try todo.requireTodoID(PayloadKey.todoTaskID)
                guard let fields = try todo.array(PayloadKey.fields) else {
                    throw .schemaMismatch("payload.resolutions.todos[].fields is required")
                }
                todoResolutions.append(
                    TodoResolution(todo: id, fields: try fieldResolutions(fields, path: todo.name(PayloadKey.fields))))
            }
        }
        return MergeSpec(base: base, policy: policy, taskResolutions: taskResolutions, todoResolutions: todoResolutions)
    }

    private static func strategy(_ reader: FieldReader, _ key: String) throws(NodeValidationError) -> MergeStrategy? {
        guard let text = try reader.string(key) else { return nil }
        guard let strategy = MergeStrategy(rawValue: text) else {
            throw .schemaMismatch("\(reader.name(key)) '\(text)' is not a merge strategy")
        }
        return strategy
    }

    private static func fieldResolutions(_ elements: [JSONValue], path: String) throws(NodeValidationError)
        -> [FieldResolution]
    {
        var resolutions: [FieldResolution] = []
        for element in elements {
            guard case .object(let object) = element else { throw .schemaMismatch("\(path)[] must be an object") }
            let reader = FieldReader(object, path: "\(path)[]")
            try reader.rejectUnknownMembers(allowed: [
                PayloadKey.path, PayloadKey.strategy, PayloadKey.chosenParent, PayloadKey.value, PayloadKey.notes,
            ])
            guard let fieldPath = try reader.nonEmptyString(PayloadKey.path) else {
                throw .schemaMismatch("\(reader.name(PayloadKey.path)) is required")
            }
            guard let strategy = try strategy(reader, PayloadKey.strategy) else {
                throw .schemaMismatch("\(reader.name(PayloadKey.strategy)) is required")
            }
            let chosenParent = try reader.nodeID(PayloadKey.chosenParent)
            if (strategy == .ours || strategy == .theirs) && chosenParent == nil {
                throw .schemaMismatch("\(reader.name(PayloadKey.chosenParent)) is required for \(strategy.rawValue)")
            }
            let value = object[PayloadKey.value]
            if strategy == .manual && value == nil {
                throw .schemaMismatch("\(reader.name(PayloadKey.value)) is required for manual")
            }
            resolutions.append(
                FieldResolution(
                    path: fieldPath, strategy: strategy, chosenParent: chosenParent,
                    value: value, notes: try reader.string(PayloadKey.notes)))
        }
        return resolutions
    }
}
