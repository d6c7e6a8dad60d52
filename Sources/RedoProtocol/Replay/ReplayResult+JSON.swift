public import CanonicalJSON

extension ReplayResult {
    /// Validates each value standalone (spec §6.2), then replays the valid ones (spec §7).
    public static func replaying(_ values: [JSONValue], validator: NodeValidator = NodeValidator()) -> ReplayResult {
        var nodes: [RedoNode] = []
        var rejections: [NodeVerdict] = []
        for value in values {
            do {
                nodes.append(try validator.validate(value))
            } catch {
                rejections.append(
                    NodeVerdict(id: value["id"]?.stringValue ?? "", code: error.code, detail: error.detail))
            }
        }
        return Replayer.replay(nodes, standaloneRejections: rejections)
    }

    /// The result in the shape of the vectors' scenario `expected` (spec §16).
    public var jsonValue: JSONValue {
        .object(
            Self.object([
                ("accepted", .array(accepted.map { .string($0.description) })),
                ("rejected", .array(rejected.map(\.jsonValue))),
                ("pending", .array(pending.map(\.jsonValue))),
                ("tombstones", .array(tombstones.map { .string($0.description) })),
                ("pruned", .array(pruned.map { .string($0.description) })),
                ("deletedTasks", .array(deletedTasks.map { .string($0.description) })),
                ("tasks", .array(tasks.map(\.jsonValue))),
            ]))
    }

    /// Member names here are fixed and distinct, so building the object cannot fail.
    static func object(_ pairs: [(String, JSONValue)]) -> JSONObject {
        (try? JSONObject(pairs)) ?? JSONObject()
    }
}

extension NodeVerdict {
    public var jsonValue: JSONValue {
        .object(
            ReplayResult.object([("id", .string(id)), ("code", .string(code.rawValue)), ("detail", .string(detail))]))
    }
}

extension RedoTask {
    public var jsonValue: JSONValue {
        .object(
            ReplayResult.object(
                [
                    ("taskId", .string(taskID.description)),
                    ("createdBy", .string(createdBy.description)),
                    ("created", .string(created.description)),
                ]
                    + RedoField.taskFields.map { ($0.key, value(of: $0)?.jsonValue ?? .null) }
                    + [
                        ("todoTasks", .array(todos.map(\.jsonValue))),
                        ("currentTodo", currentTodo.map { .string($0.guid.description) } ?? .null),
                        ("heads", .array(heads.map { .string($0.description) })),
                        ("latestNodeId", .string(latestNodeID.description)),
                    ]))
    }
}

extension TodoTask {
    public var jsonValue: JSONValue {
        .object(
            ReplayResult.object(
                [
                    ("guid", .string(guid.description)),
                    ("nodeId", .string(nodeID.description)),
                    ("lamport", .number(Double(lamport))),
                    ("wall", .string(wall.description)),
                ] + RedoField.todoFields.map { ($0.key, value(of: $0)?.jsonValue ?? .null) }))
    }
}
