import ChatTimeline

/// The harness's world: store replies, late layout, promotions, deletions and live bursts, each
/// delivered to the engine as events (timeline-and-contacts.md §2.7).
extension TimelineSimulation {
    mutating func perform(_ action: SimulationAction) {
        switch action {
        case .reply(let request):
            if rng.chance(0.03) {
                send(.pageFailed(token: request.token))
            } else {
                let page = store.page(request)
                send(.pageLoaded(token: request.token, page: page))
                if rng.chance(0.05) {
                    schedule.add(.replayReply(request, page), at: now + Int.random(in: 0...200, using: &rng))
                }
            }
        case .replayReply(let request, let page):
            let before = engine.backlog.count + engine.items.count
            let offset = engine.contentOffset
            send(.pageLoaded(token: request.token, page: page))
            if engine.backlog.count + engine.items.count != before || engine.contentOffset != offset {
                invariantViolations += 1
                if firstViolation == nil { firstViolation = "a replayed reply changed the timeline at \(now) ms" }
            }
        case .duplicate:
            guard !engine.items.isEmpty else { return }
            let original = engine.items[Int.random(in: 0..<engine.items.count, using: &rng)]
            guard original.txID != nil else { return }
            var copy = original
            copy.key.id = rng.messageID()
            send(.tailArrived([copy]))
        case .retry:
            send(.retryPaging)
        case .reportHeight(let id):
            guard engine.minY(of: id) != nil, let message = store.message(id) else { return }
            let height = Self.settledHeight(message)
            guard shown[id] != height else { return }
            send(.heightChanged(id, height: height), layout: (id, height))
        case .promote(let id):
            promote(id)
        case .delete(let id):
            store.delete(id)
            send(.delete([id]))
        case .burst(let size):
            var arrivals: [TimelineItem] = []
            for _ in 0..<size {
                let message = fixture.makeLiveMessage()
                store.insert(message)
                if message.isDecodable { arrivals.append(message.item) }
            }
            liveArrivals += size
            send(.tailArrived(arrivals))
        }
    }

    /// Pending → sent: the row keeps its UUID, gains a txId and chain time (it may move) and a
    /// 12 pt status row, which the layout reports in the same frame.
    mutating func promote(_ id: MessageID) {
        guard let message = store.message(id), let promoted = message.promotion else { return }
        let wasSettled = shown[id].map { $0 == Self.settledHeight(message) && message.lateDelta != 0 } ?? false
        var next = message
        next.item = promoted
        next.promotion = nil
        store.update(next)
        send(.upsert(promoted))
        guard engine.minY(of: id) != nil else { return }
        let height = wasSettled ? Self.settledHeight(next) : next.firstHeight
        send(.heightChanged(id, height: height), layout: (id, height))
    }

    static func settledHeight(_ message: FixtureMessage) -> Double {
        max(20, message.firstHeight + message.lateDelta)
    }

    /// The layout's reaction to a window diff: new rows show the engine's assumed height until
    /// self-sizing reports the settled one 1–2 frames later.
    mutating func layOut(_ diff: WindowDiff) {
        for id in diff.removed {
            shown[id] = nil
            divergence[id] = nil
        }
        for id in diff.inserted + diff.moved {
            guard let height = engine.height(of: id) else { continue }
            if diff.inserted.contains(id) || shown[id] == nil { shown[id] = height }
            syncDivergence(id)
            if let message = store.message(id), message.lateDelta != 0, Self.settledHeight(message) != shown[id] {
                schedule.add(.reportHeight(id), at: now + Self.frame * Int.random(in: 1...2, using: &rng))
            }
        }
    }

    mutating func handleRequest(_ request: PageRequest) {
        if !outstanding.isEmpty {
            overlappingRequests += 1
            if firstViolation == nil {
                firstViolation = "request \(request) while \(outstanding) outstanding at \(now) ms"
            }
        }
        if request.direction != .newest, served.contains(request.direction) {
            overlappingRequests += 1
            if firstViolation == nil { firstViolation = "request \(request) repeats a served cursor at \(now) ms" }
        }
        outstanding.insert(request.token)
        schedule.add(.reply(request), at: now + Int.random(in: 0...300, using: &rng))
    }
}
