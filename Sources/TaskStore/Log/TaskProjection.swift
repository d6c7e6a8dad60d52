import RedoProtocol

/// The replayed state of the whole log, kept between commands so a command does not re-read,
/// re-verify and replay every node (issue 12 item 6, seed 004 §12: local edits < 50 ms).
///
/// It always equals a fresh full replay (spec §7): a store changes it only through ``replacing``,
/// which replays every node of the tasks the new nodes can affect. Replay classifies a node from
/// its own task's nodes and only the presence and task of parents elsewhere (spec §7.2 step 2),
/// so replaying those tasks with the parents they name reproduces their part of a full replay.
struct TaskProjection: Sendable {
    /// An accepted node with its total-order key (spec §7.1), so merged lists stay in order.
    struct Accepted: Sendable, Equatable {
        let id: NodeID
        let lamport: Int64
        let wall: Int64

        static func precedes(_ lhs: Accepted, _ rhs: Accepted) -> Bool {
            if lhs.lamport != rhs.lamport { return lhs.lamport < rhs.lamport }
            if lhs.wall != rhs.wall { return lhs.wall < rhs.wall }
            return lhs.id < rhs.id
        }
    }

    var accepted: [Accepted] = []
    var rejected: [NodeVerdict] = []
    var pending: [NodeVerdict] = []
    var tombstones: [NodeID] = []
    var pruned: [NodeID] = []
    var deletedTasks: [TaskID] = []
    var tasks: [RedoTask] = []
    /// Parent ids no stored node has, with the tasks of the nodes naming them: storing such a
    /// parent can change those tasks' verdicts (a pending child is accepted or rejected).
    var danglingParents: [NodeID: Set<TaskID>] = [:]

    init() {}

    /// The projection of a full replay of `nodes` (every stored node).
    init(replaying nodes: [RedoNode]) {
        self.init()
        replace(tasks: Set(nodes.map(\.taskID)), with: nodes)
    }

    /// The state in the shape replay reports it.
    var result: ReplayResult {
        var result = ReplayResult()
        result.accepted = accepted.map(\.id)
        result.rejected = rejected
        result.pending = pending
        result.tombstones = tombstones
        result.pruned = pruned
        result.deletedTasks = deletedTasks
        result.tasks = tasks
        return result
    }

    /// The tasks whose state can change when `newNodes` are stored: their own tasks, and the
    /// tasks of stored nodes that name one of them as a parent.
    func affectedTasks(by newNodes: [RedoNode]) -> Set<TaskID> {
        var affected = Set(newNodes.map(\.taskID))
        for node in newNodes { affected.formUnion(danglingParents[node.id] ?? []) }
        return affected
    }

    /// Replaces everything derived from the nodes of `affected` by a replay of `nodes`: every
    /// stored node of those tasks plus every stored node they name as a parent.
    mutating func replace(tasks affected: Set<TaskID>, with nodes: [RedoNode]) {
        let replayed = Replayer.replay(nodes)
        var own: Set<NodeID> = []
        var keys: [NodeID: Accepted] = [:]
        for node in nodes where affected.contains(node.taskID) {
            own.insert(node.id)
            keys[node.id] = Accepted(id: node.id, lamport: node.lamport, wall: node.wall.millisecondsSinceEpoch)
        }
        let ownTexts = Set(own.map(\.description))
        accepted = accepted.filter { !own.contains($0.id) } + replayed.accepted.compactMap { keys[$0] }
        accepted.sort(by: Accepted.precedes)
        rejected = Self.merged(rejected, replayed.rejected, owned: ownTexts)
        pending = Self.merged(pending, replayed.pending, owned: ownTexts)
        tombstones = (tombstones.filter { !own.contains($0) } + replayed.tombstones.filter(own.contains)).sorted()
        pruned = (pruned.filter { !own.contains($0) } + replayed.pruned.filter(own.contains)).sorted()
        deletedTasks =
            (deletedTasks.filter { !affected.contains($0) } + replayed.deletedTasks.filter(affected.contains))
            .sorted()
        tasks = tasks.filter { !affected.contains($0.taskID) } + replayed.tasks.filter { affected.contains($0.taskID) }
        tasks.sort { $0.taskID < $1.taskID }
        updateDanglingParents(affected: affected, nodes: nodes, own: own)
    }

    private mutating func updateDanglingParents(affected: Set<TaskID>, nodes: [RedoNode], own: Set<NodeID>) {
        let present = Set(nodes.map(\.id))
        var dangling: [NodeID: Set<TaskID>] = [:]
        for (parent, tasks) in danglingParents where !present.contains(parent) {
            let rest = tasks.subtracting(affected)
            if !rest.isEmpty { dangling[parent] = rest }
        }
        for node in nodes where own.contains(node.id) {
            for parent in node.parents where !present.contains(parent) {
                dangling[parent, default: []].insert(node.taskID)
            }
        }
        danglingParents = dangling
    }

    /// Verdicts of nodes outside `owned` kept, the replayed ones of `owned` added, sorted by id
    /// bytes as replay sorts them.
    private static func merged(_ old: [NodeVerdict], _ new: [NodeVerdict], owned: Set<String>) -> [NodeVerdict] {
        (old.filter { !owned.contains($0.id) } + new.filter { owned.contains($0.id) })
            .sorted { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }
    }
}
