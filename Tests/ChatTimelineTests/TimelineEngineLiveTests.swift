import ChatTimeline
import Testing

/// §2.8 scenarios 5, 6, 7: promotions, deletions, tail bursts.
@Suite struct TimelineEngineLiveTests {
    static func scrolledUp() -> TimelineHarness {
        var harness = TimelineHarness(count: 400)
        harness.open()
        harness.scroll(to: harness.engine.contentOffset - 1_500)
        harness.settle()
        return harness
    }

    @Test func aBurstOfOneHundredWhileScrolledUpShiftsNothing() throws {
        var harness = Self.scrolledUp()
        let offset = harness.engine.contentOffset
        let first = harness.engine.items.first?.id
        var time = (harness.store.last?.key.blockTime ?? 0) + 1_000
        let burst = (0..<100).map { index -> TimelineItem in
            time += 10
            return TimelineHarness.item(blockTime: time, tx: "burst\(index)")
        }
        harness.store += burst
        let effects = harness.send(.tailArrived(burst))
        #expect(harness.engine.contentOffset == offset)
        #expect(!effects.contains { if case .setContentOffset = $0 { true } else { false } })
        #expect(harness.engine.unseenCount == 100)
        #expect(effects.contains(.unseenCountChanged(100)))
        #expect(harness.engine.items.first?.id == first)
        harness.send(.jumpToBottom)
        #expect(harness.engine.items.last?.id == burst.last?.id)
        #expect(harness.engine.contentOffset == harness.engine.maxOffset)
        #expect(harness.engine.unseenCount == 0)
        #expect(harness.offsetMoves.last == .userJumpToBottom)
    }

    @Test func tailWhilePinnedFollowsTheBottom() {
        var harness = TimelineHarness(count: 100)
        harness.open()
        let live = TimelineHarness.item(blockTime: 10_000_000, tx: "live")
        harness.send(.tailArrived([live]))
        #expect(harness.engine.contentOffset == harness.engine.maxOffset)
        #expect(harness.offsetMoves.last == .followTail)
        #expect(harness.engine.unseenCount == 0)
    }

    @Test func tailWhileDraggingAtTheBottomWaitsForTheFingerToLift() {
        var harness = TimelineHarness(count: 100)
        harness.open()
        harness.send(.dragBegan)
        let moves = harness.offsetMoves.count
        harness.send(.tailArrived([TimelineHarness.item(blockTime: 10_000_000, tx: "live")]))
        #expect(harness.absoluteMoves(since: moves).isEmpty)
        harness.send(.dragEnded(willDecelerate: false))
        #expect(harness.engine.contentOffset == harness.engine.maxOffset)
        #expect(harness.offsetMoves.last == .followTail)
    }

    @Test func promotionThatMovesTheAnchorReanchorsOnItsNeighbour() throws {
        var harness = Self.scrolledUp()
        let anchor = try #require(harness.topVisible)
        let index = try #require(harness.engine.items.firstIndex { $0.id == anchor.id })
        let neighbour = harness.engine.items[index + 1]
        let y = harness.y(neighbour.id)
        var promoted = anchor
        promoted.key.blockTime += 2_500
        promoted.status = .sent
        promoted.revision += 1
        let effects = harness.send(.upsert(promoted))
        #expect(harness.y(neighbour.id) == y)
        #expect(effects.contains { if case .windowChanged(let diff) = $0 { diff.moved == [anchor.id] } else { false } })
        #expect(harness.engine.items.contains { $0.id == anchor.id && $0.key == promoted.key })
    }

    @Test func promotionBelowTheReaderWhileScrolledUpIsInvisible() throws {
        var harness = Self.scrolledUp()
        let anchor = try #require(harness.topVisible)
        let y = harness.y(anchor.id)
        var pending = try #require(harness.engine.items.last)
        pending.txID = TxID("promoted")
        pending.key.blockTime += 1_500
        harness.send(.upsert(pending))
        harness.send(.heightChanged(pending.id, height: (harness.engine.height(of: pending.id) ?? 0) + 12))
        #expect(harness.y(anchor.id) == y)
    }

    @Test func promotionRacingAPageLoadStaysUnique() throws {
        var harness = Self.scrolledUp()
        harness.scroll(to: harness.engine.minOffset)
        let request = try #require(harness.pending)
        // A row inside the page being loaded is promoted before the reply lands
        let page = harness.page(for: request)
        var promoted = try #require(page.items.last)
        promoted.key.blockTime += 1
        promoted.status = .sent
        harness.send(.upsert(promoted))
        harness.answer()
        #expect(harness.engine.invariantViolations().isEmpty)
    }

    @Test func deletingTheAnchorKeepsTheNextRowInPlace() throws {
        var harness = Self.scrolledUp()
        let anchor = try #require(harness.topVisible)
        let index = try #require(harness.engine.items.firstIndex { $0.id == anchor.id })
        let next = harness.engine.items[index + 1]
        let y = harness.y(next.id)
        harness.send(.delete([anchor.id]))
        #expect(harness.y(next.id) == y)
    }

    @Test func deletingEverythingAboveTheAnchorKeepsIt() throws {
        var harness = Self.scrolledUp()
        let anchor = try #require(harness.topVisible)
        let y = harness.y(anchor.id)
        let above = harness.engine.backlog.map(\.id) + harness.engine.items.prefix { $0.id != anchor.id }.map(\.id)
        harness.store.removeAll { above.contains($0.id) }
        harness.send(.delete(above))
        #expect(harness.y(anchor.id) == y || harness.engine.contentOffset == harness.engine.minOffset)
        // The whole previous pages are gone; reading on up still meets every remaining row once
        for _ in 0..<40 {
            harness.scroll(to: harness.engine.minOffset)
            harness.settle()
        }
        let loaded = (harness.engine.backlog + harness.engine.items).map(\.id)
        #expect(harness.engine.olderExhausted)
        #expect(loaded == harness.store.map(\.id))
    }

    @Test func deletingTheCursorRowStillPagesTheRightRows() throws {
        var harness = TimelineHarness(count: 300, pageSize: 20)
        harness.open()
        let cursorRow = try #require(harness.engine.backlog.first)
        harness.store.removeAll { $0.id == cursorRow.id }
        harness.send(.delete([cursorRow.id]))
        for _ in 0..<30 {
            harness.scroll(to: harness.engine.minOffset)
            harness.settle()
        }
        #expect((harness.engine.backlog + harness.engine.items).map(\.id) == harness.store.map(\.id))
    }
}
