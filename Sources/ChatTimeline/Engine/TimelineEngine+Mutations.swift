/// Merging rows into the loaded range: dedupe by UUID, then by txId through `identity`; moves on
/// key change; deletes (timeline-and-contacts.md §2.5 step 2, §2.2 `identity`).
extension TimelineEngine {
    /// Whether a row with this key belongs inside the contiguous loaded range (backlog + window).
    func covers(_ key: MessageKey) -> Bool {
        guard hasLoaded else { return false }
        let aboveLower = olderExhausted || (oldestCursor.map { key >= $0 } ?? true)
        let belowUpper = atLiveTail || (newestCursor.map { key <= $0 } ?? false)
        return aboveLower && belowUpper
    }

    /// Whether any loaded row (rendered or backlog) has this id.
    func isLoaded(_ id: MessageID) -> Bool {
        indexByID[id] != nil || backlog.contains { $0.id == id }
    }

    /// Inserts or updates one row. Returns `true` when it was a message not seen before.
    @discardableResult
    mutating func incorporate(_ incoming: TimelineItem, _ tx: inout TimelineTransaction) -> Bool {
        var item = incoming
        var claim: TxID?
        if let txID = item.txID {
            if let first = identity[txID], first != item.id {
                // Same message under a second UUID (store decode vs live path, or a pending row
                // promoted to a txId we already knew): the first UUID wins, the other row goes.
                if isLoaded(item.id) { removeRow(item.id, &tx) }
                item.key.id = first
            } else if identity[txID] == nil {
                // Claimed only once the row is kept: a dropped row (outside the loaded range)
                // must not rename the copy that paging brings in later.
                claim = txID
            }
        }
        defer { if let claim, isLoaded(item.id) { identity[claim] = item.id } }
        if let existing = loadedItem(item.id) {
            var merged = item
            if merged.txID == nil { merged.txID = existing.txID }
            guard merged != existing else { return false }
            if merged.key != existing.key {
                let wasRendered = indexByID[existing.id] != nil
                removeRow(existing.id, &tx, recordRemoval: false)
                tx.moved.insert(existing.id)
                let isRendered = covers(merged.key) && insertSorted(merged)
                switch (wasRendered, isRendered) {
                case (true, true): tx.diff.moved.append(merged.id)
                case (true, false): tx.diff.removed.append(merged.id)
                case (false, true): tx.diff.inserted.append(merged.id)
                case (false, false): break
                }
            } else {
                replace(merged)
                if indexByID[merged.id] != nil { tx.diff.updated.append(merged.id) }
            }
            return false
        }
        if hasLoaded, olderExhausted, let oldest = (backlog.first ?? items.first)?.key, item.key < oldest {
            // Backfill below a start we believed final: keep the row and reopen paging, since
            // more older rows may have arrived with it (§2.6).
            olderExhausted = false
            lastOlderCursorServed = nil
            backlog.insert(item, at: 0)
            return true
        }
        guard covers(item.key) else { return true }
        if insertSorted(item) { tx.diff.inserted.append(item.id) }
        return true
    }

    func loadedItem(_ id: MessageID) -> TimelineItem? {
        if let index = indexByID[id] { return items[index] }
        return backlog.first { $0.id == id }
    }

    mutating func replace(_ item: TimelineItem) {
        if let index = indexByID[item.id] {
            items[index] = item
        } else if let index = backlog.firstIndex(where: { $0.id == item.id }) {
            backlog[index] = item
        }
    }

    /// Inserts into the backlog when older than the window, else into the window, in key order.
    /// Returns whether the row is rendered.
    mutating func insertSorted(_ item: TimelineItem) -> Bool {
        if let first = items.first, item.key > first.key {
            items.insert(item, at: insertionIndex(of: item.key, in: items))
            rebuildIndex()
            return true
        }
        if items.isEmpty && backlog.isEmpty {
            items.append(item)
            rebuildIndex()
            return true
        }
        backlog.insert(item, at: insertionIndex(of: item.key, in: backlog))
        return false
    }

    func insertionIndex(of key: MessageKey, in rows: [TimelineItem]) -> Int {
        var low = 0
        var high = rows.count
        while low < high {
            let mid = (low + high) / 2
            if rows[mid].key < key { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// Removes one loaded row; `indexByID` is rebuilt by the caller's `end`.
    mutating func removeRow(_ id: MessageID, _ tx: inout TimelineTransaction, recordRemoval: Bool = true) {
        if let index = items.firstIndex(where: { $0.id == id }) {
            items.remove(at: index)
            rebuildIndex()
            if recordRemoval { tx.diff.removed.append(id) }
        } else if let index = backlog.firstIndex(where: { $0.id == id }) {
            backlog.remove(at: index)
        }
    }

    mutating func rebuildIndex() {
        var index: [MessageID: Int] = [:]
        index.reserveCapacity(items.count)
        for (position, item) in items.enumerated() { index[item.id] = position }
        indexByID = index
    }

    mutating func remove(_ ids: Set<MessageID>, _ tx: inout TimelineTransaction) {
        guard !ids.isEmpty else { return }
        let removedRendered = items.filter { ids.contains($0.id) }.map(\.id)
        items.removeAll { ids.contains($0.id) }
        backlog.removeAll { ids.contains($0.id) }
        for id in ids { heights[id] = nil }
        rebuildIndex()
        tx.diff.removed.append(contentsOf: removedRendered)
    }

    mutating func tailArrived(_ arrivals: [TimelineItem], _ tx: inout TimelineTransaction) {
        begin(&tx, .tailArrived)
        var fresh = 0
        for item in arrivals.sorted(by: { $0.key < $1.key }) where incorporate(item, &tx) {
            fresh += 1
        }
        end(&tx)
        if !tx.wasFollowingTail || !atLiveTail { unseenCount += fresh }
    }

    mutating func heightChanged(_ id: MessageID, height: Double, _ tx: inout TimelineTransaction) {
        let height = max(0, height)
        guard indexByID[id] != nil else {
            // A backlog row measured early: remember it, nothing on screen moves.
            if isLoaded(id) { heights[id] = height }
            return
        }
        guard abs((heights[id] ?? 0) - height) > 1e-9 else { return }
        begin(&tx, .heightChanged)
        heights[id] = height
        end(&tx)
    }
}
