/// Paging policy: reveal from the warm backlog without I/O, keep 2–3 pages prefetched with one
/// request in flight, drop stale replies, cap the window (timeline-and-contacts.md §2.6).
extension TimelineEngine {
    mutating func pageLoaded(token: PageToken, page: TimelinePage, _ tx: inout TimelineTransaction) {
        // A reply to an abandoned request (reset, jump, superseded) changes nothing.
        guard let request = inFlight, request.token == token else { return }
        inFlight = nil
        consecutiveFailures = 0
        let rows = page.items.sorted { $0.key < $1.key }
        switch request.direction {
        case .newest:
            begin(&tx, .pageLoaded)
            tx.diff.removed.append(contentsOf: items.map(\.id))
            items = []
            backlog = []
            heights = [:]
            rebuildIndex()
            hasLoaded = true
            atLiveTail = true
            newestCursor = nil
            oldestCursor = page.boundary ?? rows.first?.key
            olderExhausted = false
            lastOlderCursorServed = nil
            for row in rows { incorporate(row, &tx) }
            olderExhausted = !page.hasMore
            tx.diff.inserted = items.map(\.id)
            end(&tx)
            let reason = awaitingNewest ?? .initialPlacement
            awaitingNewest = nil
            place(&tx, reason: reason)
        case .older(let cursor):
            begin(&tx, .pageLoaded)
            lastOlderCursorServed = cursor
            var lower = cursor
            if let boundary = page.boundary, boundary < lower { lower = boundary }
            if let oldest = rows.first?.key, oldest < lower { lower = oldest }
            oldestCursor = min(oldestCursor ?? lower, lower)
            // Rows are merged before `olderExhausted` is set, so they are not taken for a backfill.
            for row in rows { incorporate(row, &tx) }
            olderExhausted = !page.hasMore
            end(&tx)
        case .newer(let cursor):
            begin(&tx, .pageLoaded)
            var upper = cursor
            if let boundary = page.boundary, boundary > upper { upper = boundary }
            if let newest = rows.last?.key, newest > upper { upper = newest }
            newestCursor = upper
            if !page.hasMore {
                atLiveTail = true
                newestCursor = nil
            } else if upper == cursor {
                // No progress although more was promised: stop asking rather than loop.
                atLiveTail = true
                newestCursor = nil
            }
            for row in rows { incorporate(row, &tx) }
            end(&tx)
        }
    }

    mutating func pageFailed(token: PageToken, _ tx: inout TimelineTransaction) {
        guard let request = inFlight, request.token == token else { return }
        inFlight = nil
        consecutiveFailures += 1
        pausedAfterFailure = true
        tx.failedAttempt = consecutiveFailures
    }

    mutating func jumpToBottom(_ tx: inout TimelineTransaction) {
        unseenCount = 0
        if atLiveTail && hasLoaded {
            contentOffset = maxOffset
            isPinnedToBottom = true
            tx.absoluteReason = .userJumpToBottom
            recapture(&tx)
            return
        }
        // The window left the tail (memory cap): reload the newest page, then land on it.
        abandonInFlight(&tx)
        pausedAfterFailure = false
        awaitingNewest = .userJumpToBottom
    }

    mutating func reset(_ newPlacement: TimelinePlacement, _ tx: inout TimelineTransaction) {
        tx.diff.removed.append(contentsOf: items.map(\.id))
        items = []
        backlog = []
        heights = [:]
        identity = [:]
        rebuildGeometry()
        unseenCount = 0
        hasLoaded = false
        oldestCursor = nil
        newestCursor = nil
        olderExhausted = false
        atLiveTail = true
        abandonInFlight(&tx)
        lastOlderCursorServed = nil
        pausedAfterFailure = false
        consecutiveFailures = 0
        awaitingNewest = .initialPlacement
        placement = newPlacement
        deferredPlacement = false
        isPinnedToBottom = true
    }

    /// Moves backlog rows into the window while the reader is near the top, then trims the
    /// window's far side past the memory cap; each step is anchor-corrected inside the event.
    mutating func revealAndTrim(_ tx: inout TimelineTransaction) {
        guard hasLoaded, viewport.height > 0 else { return }
        let pageSize = configuration.pageSize
        var reveals = 0
        while !backlog.isEmpty, reveals < configuration.warmPages,
            contentOffset + viewport.topInset < configuration.revealViewports * viewport.height
        {
            begin(&tx, .reveal)
            let count = min(pageSize, backlog.count)
            let revealed = backlog.suffix(count)
            backlog.removeLast(count)
            items.insert(contentsOf: revealed, at: 0)
            tx.diff.inserted.append(contentsOf: revealed.map(\.id))
            rebuildIndex()
            end(&tx)
            reveals += 1
        }
        trimIfNeeded(&tx)
    }

    mutating func trimIfNeeded(_ tx: inout TimelineTransaction) {
        let cap = configuration.windowCap
        let pageSize = configuration.pageSize
        guard items.count > cap else { return }
        let excess = items.count - (cap - pageSize)
        let top = anchorIndex()
        let visibleBottom = contentOffset + viewport.height
        var lastVisible = top
        while lastVisible + 1 < items.count && prefix[lastVisible + 1] < visibleBottom { lastVisible += 1 }
        let removableBelow = items.count - (lastVisible + 1 + pageSize)
        let removableAbove = top - pageSize
        if removableBelow >= removableAbove, removableBelow > 0 {
            begin(&tx, .trim)
            let count = min(excess, removableBelow)
            let removed = items.suffix(count).map(\.id)
            items.removeLast(count)
            forget(removed, &tx)
            if case .newer = inFlight?.direction { abandonInFlight(&tx) }
            newestCursor = items.last?.key
            atLiveTail = false
            isPinnedToBottom = false
            end(&tx)
        } else if removableAbove > 0 {
            begin(&tx, .trim)
            let count = min(excess, removableAbove)
            let removed = items.prefix(count).map(\.id)
            items.removeFirst(count)
            forget(removed, &tx)
            forget(backlog.map(\.id), &tx, rendered: false)
            backlog = []
            if case .older = inFlight?.direction { abandonInFlight(&tx) }
            oldestCursor = items.first?.key
            olderExhausted = false
            lastOlderCursorServed = nil
            end(&tx)
        }
    }

    mutating func abandonInFlight(_ tx: inout TimelineTransaction) {
        if let request = inFlight { tx.cancelled.append(request.token) }
        inFlight = nil
    }

    mutating func forget(_ ids: [MessageID], _ tx: inout TimelineTransaction, rendered: Bool = true) {
        for id in ids { heights[id] = nil }
        if rendered { tx.diff.removed.append(contentsOf: ids) }
        rebuildIndex()
    }

    /// Issues at most one request: the newest page when awaited, newer rows when the window was
    /// trimmed below and the reader nears its bottom, else older rows to keep the backlog warm.
    mutating func evaluatePaging(_ tx: inout TimelineTransaction) {
        guard inFlight == nil, !pausedAfterFailure else { return }
        if awaitingNewest != nil {
            issue(.newest, &tx)
            return
        }
        guard hasLoaded else { return }
        let distanceToBottom = contentHeight - (contentOffset + viewport.height)
        if !atLiveTail, let newest = newestCursor,
            distanceToBottom < configuration.revealViewports * max(viewport.height, 1)
        {
            issue(.newer(than: newest), &tx)
            return
        }
        let warm = configuration.warmPages * configuration.pageSize
        if !olderExhausted, let cursor = oldestCursor, cursor != lastOlderCursorServed, backlog.count < warm {
            issue(.older(than: cursor), &tx)
        }
    }

    mutating func issue(_ direction: PageDirection, _ tx: inout TimelineTransaction) {
        nextToken += 1
        let request = PageRequest(token: PageToken(nextToken), direction: direction, limit: configuration.pageSize)
        inFlight = request
        tx.request = request
    }
}
