/// Node id → position in the total order: an open-addressing table of 32-bit positions.
///
/// A million-node replay looks up every parent; a `[NodeID: Int]` costs ~70 MB of fresh pages
/// and a cache miss per probe, this costs 8 MB. Slots are chosen by the seeded standard hasher,
/// so crafted ids cannot line up long probe chains.
struct NodeIndex: Sendable {
    private var slots: [Int32]
    private let mask: Int

    init(ids: [NodeID]) {
        var capacity = 16
        while capacity < ids.count * 2 { capacity <<= 1 }
        mask = capacity - 1
        slots = [Int32](repeating: -1, count: capacity)
        for (position, id) in ids.enumerated() {
            var slot = id.hashValue & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(position)
        }
    }

    func position(of id: NodeID, in ids: [NodeID]) -> Int? {
        var slot = id.hashValue & mask
        while true {
            let position = Int(slots[slot])
            if position < 0 { return nil }
            if ids[position] == id { return position }
            slot = (slot + 1) & mask
        }
    }
}
