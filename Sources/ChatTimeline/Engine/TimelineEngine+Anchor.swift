/// Geometry and the anchor protocol: capture the row under the viewport top before a mutation,
/// put it back at the same viewport Y after (timeline-and-contacts.md §2.5, after Telegram's
/// stationary node and Signal's continuity token, §1.1 and §1.3).
extension TimelineEngine {
    /// Starts a mutation: captures the anchor once per event, before anything changes.
    mutating func begin(_ tx: inout TimelineTransaction, _ cause: CorrectionCause) {
        if tx.cause == nil { tx.cause = cause }
        guard !tx.anchorCaptured else { return }
        tx.anchorCaptured = true
        tx.wasFollowingTail = isFollowingTail
        tx.anchor = captureAnchor()
    }

    /// Re-anchors after an absolute move so later mutations in the same event stay relative to it.
    func recapture(_ tx: inout TimelineTransaction) {
        tx.anchorCaptured = true
        tx.wasFollowingTail = isFollowingTail
        tx.anchor = captureAnchor()
    }

    func captureAnchor() -> TimelineTransaction.CapturedAnchor? {
        guard !items.isEmpty else { return nil }
        return TimelineTransaction.CapturedAnchor(
            items: items, prefix: prefix, offset: contentOffset, index: anchorIndex()
        )
    }

    /// Ends a mutation: rebuilds geometry and makes the one offset decision for the event so far.
    mutating func end(_ tx: inout TimelineTransaction) {
        rebuildGeometry()
        if tx.wasFollowingTail && atLiveTail && !isInteracting {
            contentOffset = maxOffset
            tx.followedTail = true
            isPinnedToBottom = true
            return
        }
        guard let anchor = tx.anchor, let target = anchoredOffset(anchor, moved: tx.moved) else {
            contentOffset = clamped(contentOffset)
            return
        }
        contentOffset = clamped(target)
    }

    /// The first row whose frame reaches below the visible top (the reader's reading position).
    func anchorIndex() -> Int {
        let visibleTop = contentOffset + viewport.topInset
        var low = 0
        var high = items.count - 1
        while low < high {
            let mid = (low + high) / 2
            if prefix[mid + 1] > visibleTop { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// The offset that puts the old anchor (or, if it is gone or moved, its nearest surviving
    /// neighbour: down first, then up) at its old viewport Y.
    func anchoredOffset(_ anchor: TimelineTransaction.CapturedAnchor, moved: Set<MessageID>) -> Double? {
        let count = anchor.items.count
        let order = Array(anchor.index..<count) + Array((0..<anchor.index).reversed())
        for oldIndex in order {
            let id = anchor.items[oldIndex].id
            guard !moved.contains(id), let newIndex = indexByID[id] else { continue }
            let dy = anchor.prefix[oldIndex] - anchor.offset
            return prefix[newIndex] - dy
        }
        return nil
    }

    func clamped(_ offset: Double) -> Double {
        min(max(offset, minOffset), maxOffset)
    }

    /// Recomputes prefix sums and the id index; measures rows rendered for the first time.
    mutating func rebuildGeometry() {
        var sums = [Double]()
        sums.reserveCapacity(items.count + 1)
        sums.append(0)
        var index: [MessageID: Int] = [:]
        index.reserveCapacity(items.count)
        var total = 0.0
        for (position, item) in items.enumerated() {
            let height: Double
            if let known = heights[item.id] {
                height = known
            } else {
                height = max(0, measure(item))
                heights[item.id] = height
            }
            total += height
            sums.append(total)
            index[item.id] = position
        }
        prefix = sums
        indexByID = index
    }

    /// Pinned means within `pinTolerance` of the bottom of a window that reaches the live tail;
    /// only the user's own scrolling changes it (§2.2).
    mutating func refreshPin() {
        isPinnedToBottom = maxOffset - contentOffset <= configuration.pinTolerance
        if isFollowingTail { unseenCount = 0 }
    }

    /// After the finger lifts or momentum stops: perform the absolute move that had to wait.
    mutating func settle(_ tx: inout TimelineTransaction) {
        if deferredPlacement {
            deferredPlacement = false
            place(&tx, reason: .initialPlacement)
            return
        }
        if isFollowingTail && abs(contentOffset - maxOffset) > 1e-9 {
            contentOffset = maxOffset
            tx.absoluteReason = .followTail
            recapture(&tx)
        }
    }

    /// Initial placement once the first page is in: bottom, or the unread marker at the top.
    mutating func place(_ tx: inout TimelineTransaction, reason: OffsetReason) {
        if isInteracting && reason == .initialPlacement {
            deferredPlacement = true
            return
        }
        switch placement {
        case .top(let id) where indexByID[id] != nil && reason == .initialPlacement:
            contentOffset = clamped((minY(of: id) ?? 0) - viewport.topInset)
        default:
            contentOffset = maxOffset
        }
        tx.absoluteReason = reason
        isPinnedToBottom = maxOffset - contentOffset <= configuration.pinTolerance
        if isFollowingTail { unseenCount = 0 }
        recapture(&tx)
    }
}
