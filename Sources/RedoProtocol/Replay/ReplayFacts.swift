/// What replay reads of each node, laid out task by task and built as nodes are added (issue 49
/// item 1). Each task's nodes form one run in total order (spec §7.1): the nodes, what
/// classification reads of each (``Slot``: lamport, wall, action), their payloads, and their
/// parents as slots of the same run. A replay over them (``Replayer/replay(_:standaloneRejections:)``)
/// neither sorts nor opens a node, but for a MERGE, and it reads
/// one task's facts from one place: at a million nodes, the ten nodes of a task no longer lie a
/// hundred thousand positions apart in every array replay reads, nor in a million heap objects.
///
/// Ids stay in total order too, with an id → position index, for the accepted list and lookups
/// by id. Nodes added after every node already held (a log read in total order, a new local edit)
/// are appended in place: a few array appends and one hash probe per parent, each run the batch
/// touches growing once. A batch holding a
/// node that sorts before the last one held builds the facts again from every node, which costs
/// what one full replay's sort and index cost.
public struct ReplayFacts: Sendable {
    /// What replay reads of one node besides its payload. The node itself is kept beside it, in its run's
    /// `nodes`: a slot holding it would retain it, and so touch it, each time it is read.
    struct Slot: Sendable {
        let lamport: Int64
        let wall: WallTime
        /// The node's position in total order.
        let position: Int32
        /// Its parents are `run.parents[previous slot's parentsEnd..<parentsEnd]`, in the node's order.
        var parentsEnd: Int32
        /// The payload's action, beside the lamport: classification reads both of every parent, and
        /// the payload (in `payloads`) only for the nodes whose own checks need it.
        let action: RedoAction
        /// For a CREATE, its author's place in ``ReplayFacts/creators``, else -1: the task replay
        /// builds takes `createdBy` from it rather than from the node.
        let creator: Int32
    }

    /// One task's nodes in total order, their facts, and their parents as slots of this run:
    /// ``absent`` for a parent not held, ``elsewhere`` for one of another task.
    struct TaskRun: Sendable {
        var nodes: [RedoNode] = []
        /// What each node asks of the task's state, copied at append time so that rebuilding the
        /// state does not open the nodes; their texts are copied too, into storage of their own
        /// (``NodePayload/withStringsCopied()``), so that replay does not read them from the
        /// nodes' pages.
        var payloads: [NodePayload] = []
        var slots: [Slot] = []
        var parents: [Int32] = []

        /// The range of `parents` that holds the parents of `slot`.
        func parentRange(of slot: Int) -> Range<Int> {
            (slot == 0 ? 0 : Int(slots[slot - 1].parentsEnd))..<Int(slots[slot].parentsEnd)
        }
    }

    /// Where the node at a position lives: its task's run and its slot there.
    struct Place: Sendable {
        let ordinal: Int32
        let slot: Int32
    }

    static let absent: Int32 = -1
    static let elsewhere: Int32 = -2

    /// Ids in total order, and an id → position index.
    private(set) var ids: [NodeID] = []
    private(set) var index = NodeIndex(ids: [])
    private(set) var places: [Place] = []
    /// Runs by task ordinal (the order in which tasks first appear in total order).
    private(set) var runs: [TaskRun] = []
    private(set) var taskIDs: [TaskID] = []
    /// The distinct authors of CREATE nodes, each user id kept once.
    private(set) var creators: [UserID] = []
    private var creatorOrdinals: [UserID: Int32] = [:]
    /// The parents' ids of the node at position p, `parentIDs[parentStarts[p]..<parentStarts[p + 1]]`:
    /// read at replay only to name a parent in a verdict, or to find one among the standalone
    /// rejections (and at build time to note a parent not held yet).
    private(set) var parentStarts: [Int] = [0]
    private(set) var parentIDs: [NodeID] = []
    private var ordinalOf: [TaskID: Int] = [:]
    /// Parent slots naming a node not held yet, by that node's id: filled in when it arrives.
    private var waiting: [NodeID: [(ordinal: Int32, offset: Int)]] = [:]
    private var lastKey: RedoNode.OrderKey?
    /// Slots and parents given out in each run, counting those of the batch being added: a
    /// batch places every node first, then sizes each run it touches once, then fills them.
    private var assignedSlots: [Int32] = []
    private var assignedParents: [Int32] = []
    /// How many times an add built the facts again because a node sorted before the last one.
    private(set) var rebuilds = 0

    /// No nodes.
    public init() {}

    /// The facts of `nodes`, in any order; copies of one id count once (equal ids are equal
    /// content).
    public init(nodes: [RedoNode]) {
        var batch: [(key: RedoNode.OrderKey, node: RedoNode)] = []
        batch.reserveCapacity(nodes.count)
        for node in nodes { batch.append((node.orderKey, node)) }
        batch.sort { $0.key < $1.key }
        appendInOrder(batch)
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
            self = ReplayFacts(nodes: runs.flatMap(\.nodes) + fresh.map(\.node))
            rebuilds = rebuilt
            return
        }
        appendInOrder(fresh)
    }

    /// The node at `position` in total order.
    func node(at position: Int) -> RedoNode {
        let place = places[position]
        return runs[Int(place.ordinal)].nodes[Int(place.slot)]
    }

    /// Appends `batch`, sorted in total order, every node sorting after the last one held;
    /// copies of one id are next to each other and count once. In two passes, so each run the
    /// batch touches grows once rather than by doubling from one slot (a million nodes would
    /// otherwise cost a million allocations): the first gives each node its position, task and
    /// slot, the second fills the runs.
    private mutating func appendInOrder(_ batch: [(key: RedoNode.OrderKey, node: RedoNode)]) {
        let firstPosition = ids.count
        let firstParent = parentIDs.count
        ids.reserveCapacity(ids.count + batch.count)
        places.reserveCapacity(ids.count + batch.count)
        parentStarts.reserveCapacity(ids.count + batch.count + 1)
        var nodes: [RedoNode] = []
        var payloads: [NodePayload] = []
        var facts: [Slot] = []
        var parentPositions: [Int] = []
        var touched: [Int] = []
        nodes.reserveCapacity(batch.count)
        payloads.reserveCapacity(batch.count)
        facts.reserveCapacity(batch.count)
        for (key, node) in batch where key.id != ids.last {
            let storage = node.storage
            let position = ids.count
            ids.append(key.id)
            // Indexed before its parents are resolved: a node naming itself finds itself, as a
            // lookup over the whole set does.
            index.insert(at: position, in: ids)
            let taskID = storage.taskID
            var ordinal: Int?
            for parent in storage.parents {
                parentIDs.append(parent)
                let parentPosition = index.position(of: parent, in: ids)
                parentPositions.append(parentPosition ?? -1)
                // A node naming itself has no place yet; it is refused later as sorting after itself.
                if ordinal == nil, let parentPosition, parentPosition < position {
                    let parentOrdinal = Int(places[parentPosition].ordinal)
                    if taskIDs[parentOrdinal] == taskID { ordinal = parentOrdinal }
                }
            }
            parentStarts.append(parentIDs.count)
            let own = ordinal ?? ordinalOf[taskID] ?? newRun(for: taskID)
            if Int(assignedSlots[own]) == runs[own].slots.count { touched.append(own) }
            places.append(Place(ordinal: Int32(own), slot: assignedSlots[own]))
            assignedSlots[own] += 1
            assignedParents[own] += Int32(storage.parents.count)
            nodes.append(node)
            payloads.append(storage.payload.withStringsCopied())
            facts.append(
                Slot(
                    lamport: key.lamport, wall: storage.wall, position: Int32(position), parentsEnd: 0,
                    action: storage.payload.action,
                    creator: storage.payload.action == .create ? creatorOrdinal(storage.author.userID) : -1))
            lastKey = key
        }
        for ordinal in touched {
            runs[ordinal].nodes.reserveCapacity(Int(assignedSlots[ordinal]))
            runs[ordinal].slots.reserveCapacity(Int(assignedSlots[ordinal]))
            runs[ordinal].payloads.reserveCapacity(Int(assignedSlots[ordinal]))
            runs[ordinal].parents.reserveCapacity(Int(assignedParents[ordinal]))
        }
        for (offset, node) in nodes.enumerated() {
            let position = firstPosition + offset
            let own = Int(places[position].ordinal)
            for slot in parentStarts[position]..<parentStarts[position + 1] {
                let parentPosition = parentPositions[slot - firstParent]
                if parentPosition >= 0 {
                    let place = places[parentPosition]
                    runs[own].parents.append(Int(place.ordinal) == own ? place.slot : Self.elsewhere)
                } else {
                    waiting[parentIDs[slot], default: []].append((Int32(own), runs[own].parents.count))
                    runs[own].parents.append(Self.absent)
                }
            }
            var fact = facts[offset]
            fact.parentsEnd = Int32(runs[own].parents.count)
            runs[own].slots.append(fact)
            runs[own].nodes.append(node)
            runs[own].payloads.append(payloads[offset])
            if !waiting.isEmpty, let waiters = waiting.removeValue(forKey: ids[position]) {
                let slot = places[position].slot
                for waiter in waiters {
                    runs[Int(waiter.ordinal)].parents[waiter.offset] =
                        Int(waiter.ordinal) == own ? slot : Self.elsewhere
                }
            }
        }
    }

    private mutating func creatorOrdinal(_ userID: UserID) -> Int32 {
        if let ordinal = creatorOrdinals[userID] { return ordinal }
        let ordinal = Int32(creators.count)
        creators.append(userID)
        creatorOrdinals[userID] = ordinal
        return ordinal
    }

    private mutating func newRun(for taskID: TaskID) -> Int {
        let ordinal = taskIDs.count
        ordinalOf[taskID] = ordinal
        taskIDs.append(taskID)
        runs.append(TaskRun())
        assignedSlots.append(0)
        assignedParents.append(0)
        return ordinal
    }
}
