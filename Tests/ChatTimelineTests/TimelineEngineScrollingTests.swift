import ChatTimeline
import Testing

/// §2.8 scenarios 1, 2, 11, 12 and the window cap.
@Suite struct TimelineEngineScrollingTests {
    @Test func opensPinnedToTheBottomWithAWarmBacklog() {
        var harness = TimelineHarness(count: 500)
        harness.open()
        #expect(harness.engine.isPinnedToBottom)
        #expect(harness.engine.contentOffset == harness.engine.maxOffset)
        #expect(harness.engine.items.last?.id == harness.store.last?.id)
        #expect(harness.engine.backlog.count >= 2 * harness.engine.configuration.pageSize)
        #expect(harness.offsetMoves.filter { $0 == .initialPlacement }.count == 1)
    }

    @Test(arguments: [false, true])
    func prependWhileTheFingerIsDownOrMomentumRunsKeepsTheAnchorWithoutAbsoluteMoves(decelerating: Bool) throws {
        var harness = TimelineHarness(count: 500)
        harness.open()
        let moves = harness.offsetMoves.count
        harness.send(.dragBegan)
        if decelerating { harness.send(.dragEnded(willDecelerate: true)) }
        // Scroll to the top in small steps; reveals and page loads happen on the way
        for _ in 0..<60 {
            let anchor = try #require(harness.topVisible)
            let before = try #require(harness.y(anchor.id))
            let target = max(harness.engine.minOffset, harness.engine.contentOffset - 150)
            let delta = harness.engine.contentOffset - target
            harness.send(.userScrolled(offset: target))
            let scrolled = try #require(harness.y(anchor.id))
            #expect(abs(scrolled - (before + delta)) < 1e-6)
            harness.answer()
            #expect(abs((harness.y(anchor.id) ?? .nan) - scrolled) < 1e-6)
        }
        #expect(harness.absoluteMoves(since: moves).isEmpty)
        #expect(harness.offsetMoves.count > moves)
    }

    @Test func heightChangeAboveTheAnchorShiftsTheOffsetNotTheReader() throws {
        var harness = TimelineHarness(count: 300)
        harness.open()
        harness.scroll(to: harness.engine.contentOffset - 900)
        let anchor = try #require(harness.topVisible)
        let index = try #require(harness.engine.items.firstIndex { $0.id == anchor.id })
        let above = harness.engine.items[index - 2]
        let below = harness.engine.items[index + 3]
        let y = harness.y(anchor.id)
        let offset = harness.engine.contentOffset
        // Above grows by 40: the offset follows, the anchor stays
        harness.send(.heightChanged(above.id, height: (harness.engine.height(of: above.id) ?? 0) + 40))
        #expect(harness.y(anchor.id) == y)
        #expect(harness.engine.contentOffset == offset + 40)
        // Below shrinks: nothing on screen above it moves
        harness.send(.heightChanged(below.id, height: 10))
        #expect(harness.y(anchor.id) == y)
        // The anchor itself grows: its top stays
        harness.send(.heightChanged(anchor.id, height: 900))
        #expect(harness.y(anchor.id) == y)
    }

    @Test func anAnchorTallerThanTheViewportKeepsItsTop() throws {
        var harness = TimelineHarness(count: 300)
        harness.open()
        harness.scroll(to: harness.engine.contentOffset - 1_200)
        let anchor = try #require(harness.topVisible)
        harness.send(.heightChanged(anchor.id, height: 2_000))
        harness.scroll(to: (harness.engine.minY(of: anchor.id) ?? 0) + 500)
        #expect(harness.topVisible?.id == anchor.id)
        let y = harness.y(anchor.id)
        let index = try #require(harness.engine.items.firstIndex { $0.id == anchor.id })
        harness.send(.heightChanged(harness.engine.items[index - 1].id, height: 5))
        #expect(harness.y(anchor.id) == y)
    }

    @Test func keyboardWhileScrolledUpKeepsTheAnchorAndWhilePinnedKeepsTheBottom() throws {
        var harness = TimelineHarness(count: 300)
        harness.open()
        harness.send(.viewportChanged(TimelineViewport(height: 300)))
        #expect(harness.engine.contentOffset == harness.engine.maxOffset)
        harness.scroll(to: harness.engine.contentOffset - 800)
        let anchor = try #require(harness.topVisible)
        let y = harness.y(anchor.id)
        harness.send(.viewportChanged(TimelineViewport(height: 600)))
        #expect(harness.y(anchor.id) == y)
        #expect(!harness.engine.isPinnedToBottom)
    }

    @Test func opensAtTheUnreadMarkerThenPrependsWithoutMovingIt() throws {
        var harness = TimelineHarness(count: 300, pageSize: 20)
        let marker = harness.store[harness.store.count - 12]
        harness.send(.viewportChanged(TimelineViewport(height: TimelineHarness.viewportHeight)))
        harness.send(.reset(.top(of: marker.id)))
        harness.answer()
        #expect(harness.y(marker.id) == 0 || harness.engine.contentOffset == harness.engine.maxOffset)
        let y = try #require(harness.y(marker.id))
        harness.settle()
        harness.scroll(to: harness.engine.contentOffset - 1)
        harness.settle()
        #expect(harness.engine.items.count > 20)
        #expect(abs((harness.y(marker.id) ?? .nan) - (y + 1)) < 1e-9)
    }

    @Test func windowCapTrimsTheFarSideWithoutMovingTheAnchor() throws {
        var harness = TimelineHarness(count: 2_000, pageSize: 20, windowCap: 100)
        harness.open()
        for _ in 0..<80 {
            let anchor = try #require(harness.topVisible)
            harness.scroll(to: harness.engine.contentOffset - 300)
            let y = harness.y(anchor.id)
            harness.settle()
            #expect(harness.y(anchor.id) == y)
            #expect(harness.engine.items.count <= 100 + 20)
        }
        #expect(!harness.engine.atLiveTail)
        // Back down: newer pages refill below, then jump lands on the newest row
        let moves = harness.offsetMoves.count
        harness.send(.jumpToBottom)
        harness.settle()
        let newest = harness.engine.items.last?.id
        #expect(newest == harness.store.last?.id)
        let atBottom = harness.engine.contentOffset == harness.engine.maxOffset
        #expect(atBottom)
        #expect(harness.offsetMoves[moves...].contains(.userJumpToBottom))
    }
}

@Suite struct TimelineEngineNewerPagingTests {
    @Test func scrollingBackDownAfterATrimRefillsNewerRowsContiguously() throws {
        var harness = TimelineHarness(count: 1_000, pageSize: 20, windowCap: 100)
        harness.open()
        // Read far up so the window is trimmed below and detaches from the live tail
        for _ in 0..<60 {
            harness.scroll(to: harness.engine.contentOffset - 400)
            harness.settle()
        }
        #expect(!harness.engine.atLiveTail)
        // Then read back down: newer pages come in below, nothing visible jumps
        var steps = 0
        while !harness.engine.atLiveTail && steps < 400 {
            let anchor = try #require(harness.topVisible)
            harness.scroll(to: harness.engine.contentOffset + 400)
            let y = harness.y(anchor.id)
            harness.settle()
            if let y, let after = harness.y(anchor.id) { #expect(abs(after - y) < 1e-6) }
            steps += 1
        }
        #expect(harness.engine.atLiveTail)
        let loaded = (harness.engine.backlog + harness.engine.items).map(\.id)
        let start = try #require(harness.store.firstIndex { $0.id == loaded.first })
        #expect(Array(harness.store[start...].map(\.id)) == loaded)
        #expect(harness.requests.contains { if case .newer = $0.direction { true } else { false } })
    }
}
