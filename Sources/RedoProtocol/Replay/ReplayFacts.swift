/// What replay reads of each node, kept in total order (spec §7.1) and built as nodes are added
/// (issue 49 item 1): ids, the node's lamport, action, task and todo, and its parents' positions,
/// each a flat array by position. A replay over them (``Replayer/replay(_:standaloneRejections:)``)
/// neither sorts nor opens a node to classify it; only reconstruction reads the nodes' payloads.
///
/// Nodes added after every node already held (a log read in total order, a new local edit) are
/// appended in place: a few array appends and one hash probe per parent. A batch holding a node
/// that sorts before the last one held builds the facts again from every node, which costs what
/// one full replay's sort and index cost.
public struct ReplayFacts: Sendable {
    /// The nodes as they were given; `order[position]` is the index of the copy kept at each
    /// position, so nodes are not retained again in total order (a million objects touched).
    private(set) var input: [RedoNode] = []
    private(set) var order: [Int] = []
    private(set) var ids: [NodeID] = []
    private(set) var index = NodeIndex(ids: [])
    private(set) var facts: [Replayer.PositionFacts] = []
    private(set) var todos: [TodoID?] = []
    private(set) var taskIDs: [TaskID] = []
    /// Parents of the node at position p: `parentIDs/parentPositions[parentStarts[p]..<parentStarts[p + 1]]`,
    /// in the node's order, position −1 for a parent not held.
    private(set) var parentStarts: [Int] = [0]
    private(set) var parentIDs: [NodeID] = []
    private(set) var parentPositions: [Int] = []
    private var ordinalOf: [TaskID: Int] = [:]
    /// Parent slots naming a node not held yet, by that node's id: filled in when it arrives.
    private var waiting: [NodeID: [Int]] = [:]
    private var lastKey: RedoNode.OrderKey?
    /// How many times an add built the facts again because a node sorted before the last one.
    private(set) var rebuilds = 0

    /// No nodes.
    public init() {}

    /// The facts of `nodes`, in any order; copies of one id count once (equal ids are equal
    /// content).
    public init(nodes: [RedoNode]) {
        var keys: [(key: RedoNode.OrderKey, index: Int)] = []
        keys.reserveCapacity(nodes.count)
        for (offset, node) in nodes.enumerated() { keys.append((node.orderKey, offset)) }
        keys.sort { $0.key < $1.key }
        input = nodes
        reserve(nodes.count)
        for (key, offset) in keys where key.id != ids.last {
            append(nodes[offset], key: key, inputIndex: offset)
        }
    }

    /// How many distinct nodes are held.
    public var count: Int { ids.count }

    /// Adds `nodes`; copies of a node already held are left out. In place when every new node
    /// sorts after the last one held, otherwise by building the facts again.
    public mutating func add(_ nodes: [RedoNode]) {
        var fresh: [(key: RedoNode.OrderKey, node: RedoNode)] = []
        fresh.reserveCapacity(nodes.count)
        for node in nodes where index.position(of: node.id, in: ids) == nil { fresh.append((node.orderKey, node)) }
        fresh.sort { $0.key < $1.key }
        guard let first = fresh.first else { return }
        if let lastKey, !(lastKey < first.key) {
            let rebuilt = rebuilds + 1
            self = ReplayFacts(nodes: input + fresh.map(\.node))
            rebuilds = rebuilt
            return
        }
        reserve(ids.count + fresh.count)
        for (key, node) in fresh where key.id != ids.last {
            input.append(node)
            append(node, key: key, inputIndex: input.count - 1)
        }
    }

    /// The node at `position` in total order.
    func node(at position: Int) -> RedoNode { input[order[position]] }

    private mutating func reserve(_ total: Int) {
        order.reserveCapacity(total)
        ids.reserveCapacity(total)
        facts.reserveCapacity(total)
        todos.reserveCapacity(total)
        parentStarts.reserveCapacity(total + 1)
    }

    /// Appends the node that sorts after every node held.
    private mutating func append(_ node: RedoNode, key: RedoNode.OrderKey, inputIndex: Int) {
        let storage = node.storage
        let position = ids.count
        ids.append(key.id)
        order.append(inputIndex)
        // Indexed before its parents are resolved: a node naming itself finds itself, as a lookup
        // over the whole set does.
        index.insert(at: position, in: ids)
        todos.append(storage.payload.todo)
        let taskID = storage.taskID
        var sameTaskParent: Int?
        for parent in storage.parents {
            let slot = parentIDs.count
            parentIDs.append(parent)
            if let parentPosition = index.position(of: parent, in: ids) {
                parentPositions.append(parentPosition)
                // A node naming itself has no facts yet; it is refused later as sorting after itself.
                if sameTaskParent == nil, parentPosition < position, taskIDs[facts[parentPosition].ordinal] == taskID {
                    sameTaskParent = parentPosition
                }
            } else {
                parentPositions.append(-1)
                waiting[parent, default: []].append(slot)
            }
        }
        parentStarts.append(parentIDs.count)
        let ordinal: Int
        if let sameTaskParent {
            ordinal = facts[sameTaskParent].ordinal
        } else if let known = ordinalOf[taskID] {
            ordinal = known
        } else {
            ordinal = taskIDs.count
            ordinalOf[taskID] = ordinal
            taskIDs.append(taskID)
        }
        facts.append(Replayer.PositionFacts(lamport: key.lamport, ordinal: ordinal, action: storage.payload.action))
        if !waiting.isEmpty, let slots = waiting.removeValue(forKey: key.id) {
            for slot in slots { parentPositions[slot] = position }
        }
        lastKey = key
    }
}
