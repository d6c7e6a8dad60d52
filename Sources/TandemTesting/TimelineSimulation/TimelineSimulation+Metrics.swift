import ChatTimeline

/// Feeding one event and measuring it against the layout's true heights (§2.7 metrics).
extension TimelineSimulation {
    /// A row the reader can see, with its viewport Y from true heights.
    struct Sighting {
        let id: MessageID
        let key: MessageKey
        let y: Double
    }

    mutating func send(_ event: TimelineEvent, layout: (MessageID, Double)? = nil) {
        events += 1
        let following = engine.isPinnedToBottom && engine.atLiveTail
        let interacting = engine.isInteracting
        var viewOffset = engine.contentOffset
        if case .userScrolled(let offset) = event { viewOffset = offset }
        let before = sightings(offset: viewOffset)
        let firstBefore = engine.items.first?.key
        if let (id, height) = layout { shown[id] = height }
        defer { if let (id, _) = layout { syncDivergence(id) } }
        switch event {
        case .pageLoaded(let token, _), .pageFailed(let token):
            if outstanding.remove(token) != nil, case .pageLoaded = event,
                let direction = engine.inFlight.flatMap({ $0.token == token ? $0.direction : nil })
            {
                served.insert(direction)
            }
        case .reset, .jumpToBottom:
            served.removeAll()
        default:
            break
        }
        let effects = engine.apply(event)
        for effect in effects {
            switch effect {
            case .windowChanged(let diff):
                layOut(diff)
            case .setContentOffset(_, let reason):
                if passive && !following && !Self.isRelative(reason) {
                    unexpectedScrolls += 1
                }
                // No absolute move may land while the finger is down or momentum runs (§2.5).
                if interacting && !Self.isRelative(reason) && reason != .userJumpToBottom {
                    invariantViolations += 1
                    if firstViolation == nil {
                        firstViolation = "absolute move \(reason) during a gesture at \(now) ms"
                    }
                }
            case .cancelRequest(let token):
                outstanding.remove(token)
            case .requestPage(let request):
                handleRequest(request)
            case .pagingFailed(let attempt):
                schedule.add(.retry, at: now + 100 * attempt)
            case .unseenCountChanged:
                break
            }
        }
        let delta = anchorDelta(before)
        if let firstBefore, let firstAfter = engine.items.first?.key, firstAfter < firstBefore {
            prependDeltas.append(((delta ?? 0) * 1_000).rounded() / 1_000)
            if (delta ?? 0) > 1, firstViolation == nil {
                firstViolation = "prepend moved anchor by \(delta ?? 0) at event \(events) (\(event))"
            }
        } else if !following, Self.isWorldEvent(event), let delta, delta > 0.5 {
            worldAnchorMoves += 1
            if passive { unexpectedScrolls += 1 }
            if firstViolation == nil { firstViolation = "\(event) moved the anchor by \(delta) at \(now) ms" }
        } else if passive && !following, let delta, delta > 0.5 {
            unexpectedScrolls += 1
        }
        checkInvariants(after: event)
    }

    /// Events the reader did not cause: none of them may move what the reader sees.
    static func isWorldEvent(_ event: TimelineEvent) -> Bool {
        switch event {
        case .pageLoaded, .pageFailed, .retryPaging, .tailArrived, .upsert, .delete, .heightChanged: true
        default: false
        }
    }

    static func isRelative(_ reason: OffsetReason) -> Bool {
        if case .anchorCorrection = reason { return true }
        return false
    }

    /// Rendered rows intersecting the viewport, top first, with Y from the true heights.
    func sightings(offset: Double) -> [Sighting] {
        guard !engine.items.isEmpty else { return [] }
        let visibleTop = offset + Self.viewport.topInset
        let visibleBottom = offset + Self.viewport.height
        var low = 0
        var high = engine.items.count - 1
        while low < high {
            let mid = (low + high) / 2
            if engine.minY(at: mid + 1) > visibleTop { high = mid } else { low = mid + 1 }
        }
        var result: [Sighting] = []
        var index = low
        while index < engine.items.count, result.count < 8, engine.minY(at: index) < visibleBottom {
            let item = engine.items[index]
            result.append(Sighting(id: item.id, key: item.key, y: trueMinY(index) - offset))
            index += 1
        }
        return result
    }

    /// Top of the row at `index` from the layout's heights: the engine's geometry plus every
    /// difference between what the layout shows and what the engine assumes above the row.
    func trueMinY(_ index: Int) -> Double {
        var y = engine.minY(at: index)
        for (id, difference) in divergence {
            if let other = engine.index(of: id), other < index { y += difference }
        }
        return y
    }

    /// Records where the layout and the engine disagree about a row's height.
    mutating func syncDivergence(_ id: MessageID) {
        if let truth = shown[id], let assumed = engine.height(of: id), engine.minY(of: id) != nil, truth != assumed {
            divergence[id] = truth - assumed
        } else {
            divergence[id] = nil
        }
    }

    /// How far the first surviving, unmoved previously visible row moved on screen.
    func anchorDelta(_ before: [Sighting]) -> Double? {
        for sighting in before {
            guard let index = engine.index(of: sighting.id), engine.items[index].key == sighting.key else { continue }
            return abs((trueMinY(index) - engine.contentOffset) - sighting.y)
        }
        return nil
    }

    /// Engine invariants plus agreement with the store: the loaded range is exactly the store's
    /// decodable rows between its ends (no gaps, no skips), anchored at the start once exhausted
    /// and at the newest row while at the live tail.
    ///
    /// Matching every loaded row, in order and by key, to the store's strictly increasing rows
    /// with unique ids and txIds also proves the engine's own invariants (increasing keys, no
    /// duplicate id or txId) without hashing the window on every event.
    mutating func checkInvariants(after event: TimelineEvent) {
        var found: [String] = []
        let first = engine.backlog.first ?? engine.items.first
        let last = engine.items.last ?? engine.backlog.last
        if engine.hasLoaded, let first, let last {
            var index = store.lowerBound(first.key)
            var position = 0
            for rows in [engine.backlog, engine.items] {
                for row in rows {
                    while index < store.rows.count, !store.rows[index].isDecodable { index += 1 }
                    guard index < store.rows.count, store.rows[index].item.key == row.key else {
                        found.append("gap or misorder at loaded row \(position)")
                        break
                    }
                    index += 1
                    position += 1
                }
            }
            if engine.contentOffset < engine.minOffset - 1e-6 || engine.contentOffset > engine.maxOffset + 1e-6 {
                found.append("offset \(engine.contentOffset) out of range")
            }
            if engine.olderExhausted, store.rows.first(where: \.isDecodable)?.item.id != first.id {
                found.append("exhausted but the oldest row is missing")
            }
            if engine.atLiveTail, engine.inFlight?.direction != .newest,
                store.rows.last(where: \.isDecodable)?.item.id != last.id
            {
                found.append("at live tail but the newest row is missing")
            }
        }
        invariantViolations += found.count
        if firstViolation == nil, let description = found.first {
            firstViolation = "event \(events) (\(event)) at \(now) ms: \(description)"
        }
    }
}
