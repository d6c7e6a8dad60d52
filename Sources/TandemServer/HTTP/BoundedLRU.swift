/// A dictionary with a fixed capacity that forgets its least recently used entry when full.
import TandemServerStore

/// Every operation is O(1): the recency order is a doubly linked list threaded through an
/// array of slots (indices, not references, so the whole table is one value type), and a
/// dictionary maps each key to its slot. Used where strangers choose the keys (the auth rate
/// limiter, issue 14 audit: "bound the table, make eviction O(1)").
struct BoundedLRU<Key: Hashable, Value> {
    private struct Slot {
        var key: Key
        var value: Value
        var newer: Int?
        var older: Int?
    }

    let capacity: Int
    private var slots: [Slot] = []
    private var index: [Key: Int] = [:]
    private var newest: Int?
    private var oldest: Int?

    init(capacity: Int) {
        precondition(capacity > 0, "an LRU table holds at least one entry")
        self.capacity = capacity
        index.reserveCapacity(capacity)
    }

    var count: Int { index.count }

    /// The value for `key`, marking it as the most recently used.
    mutating func value(for key: Key) -> Value? {
        guard let position = index[key] else { return nil }
        moveToFront(position)
        return slots[position].value
    }

    /// Stores `value` for `key` as the most recently used entry; when the table is full and
    /// the key is new, the least recently used entry's slot is reused for it.
    mutating func set(_ value: Value, for key: Key) {
        if let position = index[key] {
            slots[position].value = value
            moveToFront(position)
            return
        }
        if slots.count < capacity {
            slots.append(Slot(key: key, value: value, newer: nil, older: nil))
            index[key] = slots.count - 1
            linkAtFront(slots.count - 1)
            return
        }
        guard let victim = oldest else { return }
        unlink(victim)
        index[slots[victim].key] = nil
        slots[victim] = Slot(key: key, value: value, newer: nil, older: nil)
        index[key] = victim
        linkAtFront(victim)
    }

    private mutating func moveToFront(_ position: Int) {
        guard newest != position else { return }
        unlink(position)
        linkAtFront(position)
    }

    private mutating func unlink(_ position: Int) {
        let newer = slots[position].newer
        let older = slots[position].older
        if let newer { slots[newer].older = older } else { newest = older }
        if let older { slots[older].newer = newer } else { oldest = newer }
        slots[position].newer = nil
        slots[position].older = nil
    }

    private mutating func linkAtFront(_ position: Int) {
        slots[position].older = newest
        slots[position].newer = nil
        if let newest { slots[newest].newer = position }
        newest = position
        if oldest == nil { oldest = position }
    }
}
