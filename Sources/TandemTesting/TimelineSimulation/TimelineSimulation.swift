public import ChatTimeline

/// The headless acceptance harness of timeline-and-contacts.md §2.7: a seeded fixture, a store
/// fake with virtual latency, a layout model holding the true row heights, and a scripted reader
/// who opens at the bottom, flings up through the whole history with passive pauses (during which
/// tail bursts, promotions and deletions arrive), reaches the start and jumps back to the bottom.
///
/// Everything runs on a virtual clock in 16 ms frames, so a run is deterministic per seed.
public struct TimelineSimulation: Sendable {
    static let frame = 16
    static let viewport = TimelineViewport(height: 720, topInset: 0, bottomInset: 0)

    var engine: TimelineEngine
    var fixture: TimelineFixture
    var store: FixtureStore
    var rng: SeededRandom
    var schedule = SimulationSchedule()
    var now = 0
    let messageCount: Int

    /// Heights the layout currently shows for rendered rows (the ground truth of the metric).
    var shown: [MessageID: Double] = [:]
    /// Rows whose late height was already reported during their current stay in the window.
    /// Layout height minus engine height, for the rare rendered rows where they differ.
    var divergence: [MessageID: Double] = [:]
    var pendingIDs: [MessageID]
    var passive = false

    // Metrics.
    var prependDeltas: [Double] = []
    var unexpectedScrolls = 0
    var worldAnchorMoves = 0
    var overlappingRequests = 0
    var invariantViolations = 0
    var events = 0
    var liveArrivals = 0
    var outstanding: Set<PageToken> = []
    var served: Set<PageDirection> = []
    var firstViolation: String?

    public init(messages: Int, seed: UInt64, configuration: TimelineConfiguration = TimelineConfiguration()) {
        messageCount = messages
        fixture = TimelineFixture(count: messages, seed: seed)
        store = FixtureStore(messages: fixture.messages)
        rng = SeededRandom(seed: seed ^ 0xA5A5_A5A5_5A5A_5A5A)
        pendingIDs = fixture.messages.filter { $0.promotion != nil }.map(\.item.id)
        engine = TimelineEngine(configuration: configuration) { FixtureMessage.firstHeight(of: $0) }
    }

    /// Runs the whole script and returns its figures.
    public mutating func run() -> SimulationReport {
        send(.viewportChanged(Self.viewport))
        send(.reset(.bottom))
        idle(for: 1_000)
        var reachedStart = false
        let deadline = 40 * messageCount * Self.frame + 600_000
        while !reachedStart && now < deadline {
            passiveRead()
            fling()
            reachedStart = isAtStart
        }
        if !reachedStart { invariantViolations += 1 }
        let landed = jumpToBottomLands()
        if !landed { invariantViolations += 1 }
        let sorted = prependDeltas.sorted()
        return SimulationReport(
            messages: messageCount,
            prepends: prependDeltas.count,
            anchorDeltaMedian: Self.nearestRank(sorted, 0.5),
            anchorDeltaP99: Self.nearestRank(sorted, 0.99),
            unexpectedScrolls: unexpectedScrolls,
            overlappingRequests: overlappingRequests,
            invariantViolations: invariantViolations,
            events: events,
            liveArrivals: liveArrivals,
            worldAnchorMoves: worldAnchorMoves,
            reachedStart: reachedStart,
            landedOnNewest: landed,
            virtualSeconds: Double(now) / 1_000,
            firstProblem: firstViolation
        )
    }

    static func nearestRank(_ sorted: [Double], _ quantile: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((quantile * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }

    var isAtStart: Bool {
        engine.olderExhausted && engine.backlog.isEmpty && engine.inFlight == nil
            && engine.contentOffset <= engine.minOffset + 0.5
    }

    /// A passive-read pause of 2–10 s: the world acts, the reader does not touch the list.
    mutating func passiveRead() {
        let pause = Int.random(in: 2_000...10_000, using: &rng)
        if rng.chance(0.4) {
            let size = rng.chance(0.05) ? 100 : 1 + Int(Self.cube(Double.random(in: 0..<1, using: &rng)) * 99)
            schedule.add(.burst(size), at: now + Int.random(in: 0..<pause, using: &rng))
        }
        if rng.chance(0.3), let victim = deletionVictim() {
            schedule.add(.delete(victim), at: now + Int.random(in: 0..<pause, using: &rng))
        }
        if rng.chance(0.2) {
            schedule.add(.duplicate, at: now + Int.random(in: 0..<pause, using: &rng))
        }
        if rng.chance(0.3), let pending = promotionCandidate() {
            schedule.add(.promote(pending), at: now + Int.random(in: 0..<pause, using: &rng))
        }
        passive = true
        idle(for: pause)
        passive = false
    }

    /// A drag then momentum upward at 200–3,000 pt/s.
    mutating func fling() {
        var velocity = Double.random(in: 200...3_000, using: &rng)
        let dragFrames = Int.random(in: 20...90, using: &rng)
        send(.dragBegan)
        for _ in 0..<dragFrames { scrollFrame(velocity) }
        send(.dragEnded(willDecelerate: true))
        while velocity > 30 {
            velocity *= 0.95
            scrollFrame(velocity)
        }
        send(.decelerationEnded)
    }

    mutating func scrollFrame(_ velocity: Double) {
        advanceFrame()
        let target = max(engine.minOffset, engine.contentOffset - velocity * Double(Self.frame) / 1_000)
        if target != engine.contentOffset { send(.userScrolled(offset: target)) }
    }

    mutating func idle(for milliseconds: Int) {
        let end = now + milliseconds
        while now < end { advanceFrame() }
    }

    /// One virtual frame: every world action due by now, in order.
    mutating func advanceFrame() {
        now += Self.frame
        while let action = schedule.popDue(now) { perform(action) }
    }

    mutating func jumpToBottomLands() -> Bool {
        send(.jumpToBottom)
        idle(for: 2_000)
        let newest = store.rows.last { $0.isDecodable }?.item.id
        return engine.atLiveTail && engine.isPinnedToBottom && engine.items.last?.id == newest
            && abs(engine.contentOffset - engine.maxOffset) < 0.5 && engine.unseenCount == 0
    }

    /// Half the time a rendered row (maybe the anchor), else any stored row.
    /// Skews burst sizes toward small ones.
    static func cube(_ x: Double) -> Double { x * x * x }

    mutating func deletionVictim() -> MessageID? {
        if rng.chance(0.5), !engine.items.isEmpty {
            return engine.items[Int.random(in: 0..<engine.items.count, using: &rng)].id
        }
        guard !store.rows.isEmpty else { return nil }
        return store.rows[Int.random(in: 0..<store.rows.count, using: &rng)].item.id
    }

    mutating func promotionCandidate() -> MessageID? {
        guard !pendingIDs.isEmpty else { return nil }
        return pendingIDs.removeLast()
    }
}
