package import RedoProtocol
package import TaskStore

/// Redo nodes for the sync bench and the crash harness: real signed nodes, as a device makes.
package enum SignedNodes {
    /// `count` nodes: tasks of one CREATE and three UPDATEs each, signed by `identity`, each
    /// task with a fresh random id (so every run and every call pushes new tasks).
    package static func tasks(count: Int, identity: ProfileIdentity) throws -> [RedoNode] {
        var generator = SystemRandomNumberGenerator()
        var nodes: [RedoNode] = []
        nodes.reserveCapacity(count)
        guard let wall = WallTime(millisecondsSinceEpoch: 1_800_000_000_000) else { return [] }
        while nodes.count < count {
            let taskID = TaskID(randomBytes: (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) })
            var parent = try NodeDraft(
                taskID: taskID, action: .create,
                payload: try NodePayload.create(TaskFieldChanges(title: "task \(nodes.count)")).jsonObject(),
                parents: [], lamport: 1, wall: wall, author: identity.author
            ).node(signedWith: identity.key)
            nodes.append(parent)
            for edit in 0..<3 where nodes.count < count {
                parent = try NodeDraft(
                    taskID: taskID, action: .update,
                    payload: try NodePayload.update(TaskFieldChanges(title: "edit \(edit)")).jsonObject(),
                    parents: [parent.id], lamport: parent.lamport + 1, wall: wall, author: identity.author
                ).node(signedWith: identity.key)
                nodes.append(parent)
            }
        }
        return nodes
    }
}
