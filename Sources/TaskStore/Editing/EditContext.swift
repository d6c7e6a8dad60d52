import CanonicalJSON
import RedoProtocol

/// What an edit reads: the target task from its own projection row, and that task's valid nodes
/// (an edit only ever names nodes of its own task as parents, spec §5), never the whole log or
/// the whole state (issue 12 item 6).
struct EditContext {
    let nodes: [RedoNode]
    let nodesByID: [NodeID: RedoNode]
    let task: RedoTask
    let author: Author

    init(editor: TaskEditor, reference: String) throws {
        let id = try Self.resolve(reference, in: editor.log.liveTaskIDs())
        guard let live = try editor.log.liveTask(id) else { throw TaskStoreError.unknownTask(reference) }
        task = live
        nodes = try editor.log.validNodes(of: task.taskID)
        var byID: [NodeID: RedoNode] = [:]
        for node in nodes { byID[node.id] = node }
        nodesByID = byID
        author = editor.identity.author
    }

    /// The shortest prefix an edit takes (issue 51 item 10): a change or a delete never lands on
    /// a task a slip of one or two characters picked.
    static let minimumPrefixLength = 4

    /// A full task id, or a unique prefix of one (at least ``minimumPrefixLength`` characters),
    /// among the live tasks' ids.
    static func resolve(_ reference: String, in ids: [TaskID]) throws -> TaskID {
        let needle = reference.lowercased()
        let matches = ids.filter { $0.description.hasPrefix(needle) }
        if let exact = matches.first(where: { $0.description == needle }) { return exact }
        guard needle.count >= minimumPrefixLength else {
            throw TaskStoreError.prefixTooShort(reference, minimum: minimumPrefixLength)
        }
        guard let first = matches.first else { throw TaskStoreError.unknownTask(reference) }
        guard matches.count == 1 else { throw TaskStoreError.ambiguousTask(reference) }
        return first
    }

    /// A draft whose single parent is the task's latest live node (spec §5 producer rules).
    func draft(_ action: RedoAction, payload: JSONObject, now: WallTime) throws -> NodeDraft {
        let parentLamport = nodesByID[task.latestNodeID]?.lamport ?? 1
        return NodeDraft(
            taskID: task.taskID, action: action, payload: payload, parents: [task.latestNodeID],
            lamport: parentLamport + 1, wall: now, author: author)
    }

    /// The node and all its ancestors, in total order (root first).
    func ancestry(of node: RedoNode) -> [RedoNode] {
        var found: [NodeID: RedoNode] = [node.id: node]
        var stack = [node]
        while let current = stack.popLast() {
            for parent in current.parents where found[parent] == nil {
                guard let parentNode = nodesByID[parent] else { continue }
                found[parent] = parentNode
                stack.append(parentNode)
            }
        }
        return found.values.sorted(by: RedoNode.precedes)
    }
}
