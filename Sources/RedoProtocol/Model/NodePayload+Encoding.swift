public import CanonicalJSON

/// Writing a payload: the inverse of the validator's reading (spec §5), so producers never
/// assemble payload members by name. Integers are written as JSON numbers, times and ids in
/// their canonical text, absent optionals left out; a MERGE writes `policy` only where it
/// differs from the spec's defaults and `resolutions` only when there are some.
extension NodePayload {
    /// The payload object a node of this action carries in `data.payload`.
    public func jsonObject() throws -> JSONObject {
        try JSONObject(members())
    }

    private func members() throws -> [(String, JSONValue)] {
        switch self {
        case .create(let fields), .update(let fields):
            return Self.members(of: fields)
        case .createTodo(let todo, let deadline, let notes):
            return [
                (PayloadKey.todoTaskID, .string(todo.description)),
                (PayloadKey.deadline, .string(deadline.description)),
            ]
                + Self.optional(PayloadKey.notes, notes.map(JSONValue.string))
        case .completeTodo(let todo, let completed, let notes):
            return [
                (PayloadKey.todoTaskID, .string(todo.description)),
                (PayloadKey.completed, .string(completed.description)),
            ]
                + Self.optional(PayloadKey.notes, notes.map(JSONValue.string))
        case .snooze(let todo, let change, let notes):
            let moved: (String, JSONValue) =
                switch change {
                case .extendByDays(let days): (PayloadKey.daysToExtend, .number(Double(days)))
                case .newDeadline(let deadline): (PayloadKey.newDeadline, .string(deadline.description))
                }
            return [(PayloadKey.todoTaskID, .string(todo.description)), moved]
                + Self.optional(PayloadKey.notes, notes.map(JSONValue.string))
        case .archive, .unarchive:
            return []
        case .delete(let chain):
            return [(PayloadKey.deletedChain, .array(chain.map { .string($0.description) }))]
        case .merge(let spec):
            return try Self.members(of: spec)
        }
    }

    private static func members(of fields: TaskFieldChanges) -> [(String, JSONValue)] {
        RedoField.taskPayloadFields.compactMap { field in fields.value(of: field).map { (field.key, $0) } }
    }

    private static func members(of spec: MergeSpec) throws -> [(String, JSONValue)] {
        let defaults = MergePolicy()
        var policy: [(String, JSONValue)] = []
        if spec.policy.defaultStrategy != defaults.defaultStrategy {
            policy.append((PayloadKey.defaultStrategy, .string(spec.policy.defaultStrategy.rawValue)))
        }
        if spec.policy.lwwTiebreakers != defaults.lwwTiebreakers {
            policy.append((PayloadKey.lwwTiebreakers, .array(spec.policy.lwwTiebreakers.map { .string($0.rawValue) })))
        }
        if spec.policy.arrayStrategy != defaults.arrayStrategy {
            policy.append((PayloadKey.arrayStrategy, .string(spec.policy.arrayStrategy.rawValue)))
        }
        var resolutions: [(String, JSONValue)] = []
        if !spec.taskResolutions.isEmpty {
            resolutions.append((PayloadKey.task, .array(try spec.taskResolutions.map(object))))
        }
        if !spec.todoResolutions.isEmpty {
            resolutions.append(
                (
                    PayloadKey.todos,
                    .array(
                        try spec.todoResolutions.map { todo in
                            try object([
                                (PayloadKey.todoTaskID, .string(todo.todo.description)),
                                (PayloadKey.fields, .array(try todo.fields.map(object))),
                            ])
                        })
                ))
        }
        return [(PayloadKey.base, .string(spec.base.description))]
            + (policy.isEmpty ? [] : [(PayloadKey.policy, try object(policy))])
            + (resolutions.isEmpty ? [] : [(PayloadKey.resolutions, try object(resolutions))])
    }

    private static func object(_ resolution: FieldResolution) throws -> JSONValue {
        try object(
            [(PayloadKey.path, .string(resolution.path)), (PayloadKey.strategy, .string(resolution.strategy.rawValue))]
                + optional(PayloadKey.chosenParent, resolution.chosenParent.map { .string($0.description) })
                + optional(PayloadKey.value, resolution.value)
                + optional(PayloadKey.notes, resolution.notes.map(JSONValue.string)))
    }

    private static func object(_ members: [(String, JSONValue)]) throws -> JSONValue {
        .object(try JSONObject(members))
    }

    private static func optional(_ key: String, _ value: JSONValue?) -> [(String, JSONValue)] {
        value.map { [(key, $0)] } ?? []
    }
}
