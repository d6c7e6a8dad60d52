import CanonicalJSON
import RedoProtocol

/// Deterministic Redo nodes for the benchmarks: fixed keys, fixed ids, fixed clock.
enum RedoBenchFixtures {
    enum FixtureError: Error { case invalid(String) }

    static let key: SigningKey? = try? SigningKey(seed: (0..<32).map { UInt8($0) })
    static let start: Int64 = 1_761_555_600_000  // 2025-10-27T09:00:00.000Z

    static func wall(_ offset: Int64) throws -> WallTime {
        guard let wall = WallTime(millisecondsSinceEpoch: start + offset) else { throw FixtureError.invalid("wall") }
        return wall
    }

    static func uuidBytes(_ index: Int, salt: UInt8) -> [UInt8] {
        var bytes = [UInt8](repeating: salt, count: 16)
        var value = UInt64(index)
        for position in 0..<8 {
            bytes[15 - position] = UInt8(value & 0xFF)
            value >>= 8
        }
        return bytes
    }

    static func author(_ key: SigningKey) throws -> Author {
        guard let device = DeviceID("bench-device") else { throw FixtureError.invalid("device") }
        return Author(
            publicKey: key.publicKey, deviceID: device, name: "Benchmark Author", email: "bench@example.org",
            deviceName: "Bench Phone")
    }

    /// A CREATE whose canonical body is about 1 KB, signed.
    static func typicalNode() throws -> RedoNode {
        guard let key else { throw FixtureError.invalid("key") }
        let description = String(repeating: "Water the balcony plants, then the kitchen herbs. ", count: 13)
        let payload = try JSONObject([
            ("title", .string("Water the plants 🌱")), ("description", .string(description)),
            ("privacy", .bool(false)), ("storyPoints", .number(2)), ("priority", .number(4)),
            ("frequencyDays", .number(3)),
        ])
        let draft = NodeDraft(
            taskID: TaskID(randomBytes: uuidBytes(1, salt: 7)), action: .create, payload: payload,
            parents: [], lamport: 1, wall: try wall(0), author: try author(key))
        return try draft.node(signedWith: key)
    }

    /// `tasks` tasks of ten nodes each: CREATE, create-todo, UPDATE, SNOOZE, complete-todo,
    /// create-todo, UPDATE, ARCHIVE, UNARCHIVE, UPDATE — a realistic mix for replay.
    /// `tasks` tasks of `nodesPerTask` nodes each, numbered from `firstTask`: logs with different
    /// first tasks share no node.
    static func taskLog(tasks: Int, nodesPerTask: Int = 10, firstTask: Int = 0, signed: Bool) throws -> [RedoNode] {
        guard let key else { throw FixtureError.invalid("key") }
        let author = try author(key)
        var nodes: [RedoNode] = []
        nodes.reserveCapacity(tasks * nodesPerTask)
        for taskIndex in firstTask..<(firstTask + tasks) {
            let taskID = TaskID(randomBytes: uuidBytes(taskIndex, salt: 1))
            let firstTodo = TodoID(randomBytes: uuidBytes(taskIndex, salt: 2)).description
            let secondTodo = TodoID(randomBytes: uuidBytes(taskIndex, salt: 3)).description
            let base = Int64(taskIndex) * 60_000
            let steps: [(RedoAction, [(String, JSONValue)])] = [
                (.create, [("title", .string("Task \(taskIndex)")), ("priority", .number(Double(taskIndex % 5 + 1)))]),
                (
                    .createTodo,
                    [
                        ("todoTaskId", .string(firstTodo)),
                        ("deadline", .string(try wall(base + 86_400_000).description)),
                    ]
                ),
                (.update, [("description", .string("details for task \(taskIndex)"))]),
                (.snooze, [("todoTaskId", .string(firstTodo)), ("daysToExtend", .number(2))]),
                (
                    .completeTodo,
                    [
                        ("todoTaskId", .string(firstTodo)),
                        ("completed", .string(try wall(base + 7_200_000).description)),
                        ("notes", .string("done")),
                    ]
                ),
                (
                    .createTodo,
                    [
                        ("todoTaskId", .string(secondTodo)),
                        ("deadline", .string(try wall(base + 5 * 86_400_000).description)),
                    ]
                ),
                (.update, [("priority", .number(5))]),
                (.archive, []),
                (.unarchive, []),
                (.update, [("title", .string("Task \(taskIndex) (renamed)"))]),
            ]
            var parent: RedoNode?
            for (step, (action, fields)) in steps.prefix(nodesPerTask).enumerated() {
                let draft = NodeDraft(
                    taskID: taskID, action: action, payload: try JSONObject(fields),
                    parents: parent.map { [$0.id] } ?? [], lamport: Int64(step + 1),
                    wall: try wall(base + Int64(step) * 1000), author: author)
                let node = try draft.node(signedWith: signed ? key : nil)
                nodes.append(node)
                parent = node
            }
        }
        return nodes
    }
}
