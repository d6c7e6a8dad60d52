/// Node id → position in the total order: an open-addressing table of 32-bit positions.
///
/// A million-node replay looks up every parent; a `[NodeID: Int]` costs ~70 MB of fresh pages
/// and a cache miss per probe, this costs 8 MB. Slots are chosen by the seeded standard hasher
/// over an id's first 8 bytes: the ids placed are content ids, SHA-256 digests computed here, so
/// no one can make many share those bytes, and under a seed they cannot predict, crafted ids
/// looked up cannot line up long probe chains either. Hashing 8 bytes rather than 32 halves the
/// cost of a probe.
struct NodeIndex: Sendable {
    private var slots: [Int32]
    private var mask: Int
    private var count = 0

    /// `minimumCapacity` is a power of two.
    init(ids: [NodeID], minimumCapacity: Int = 16) {
        var capacity = max(16, minimumCapacity)
        while capacity < ids.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        slots = [Int32](repeating: -1, count: capacity)
        for (position, id) in ids.enumerated() { place(id, at: position) }
    }

    func position(of id: NodeID, in ids: [NodeID]) -> Int? {
        var slot = Self.hash(id) & mask
        while true {
            let position = Int(slots[slot])
            if position < 0 { return nil }
            if ids[position] == id { return position }
            slot = (slot + 1) & mask
        }
    }

    /// Adds `ids[position]`, the newest id (``ReplayFacts`` adds in total order); the table doubles
    /// before it is half full, so probes stay short.
    mutating func insert(at position: Int, in ids: [NodeID]) {
        if (count + 1) * 2 > slots.count {
            self = NodeIndex(ids: Array(ids[..<position]), minimumCapacity: slots.count * 2)
        }
        place(ids[position], at: position)
    }

    private static func hash(_ id: NodeID) -> Int {
        var hasher = Hasher()
        hasher.combine(id.w0)
        return hasher.finalize()
    }

    private mutating func place(_ id: NodeID, at position: Int) {
        var slot = Self.hash(id) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(position)
        count += 1
    }
}
