import ChatTimeline
import Testing

/// §2.8 scenarios 3, 4, 8, 9, 10: deduplication and the paging policy.
@Suite struct TimelineEnginePagingTests {
    @Test func sameTxIDUnderASecondUUIDKeepsTheFirstUUID() throws {
        var harness = TimelineHarness(count: 100)
        harness.open()
        let existing = try #require(harness.engine.items.last)
        var copy = TimelineHarness.item(blockTime: existing.key.blockTime, tx: existing.txID?.rawValue)
        copy.status = .confirmed
        let count = harness.engine.items.count
        harness.send(.tailArrived([copy]))
        harness.send(.tailArrived([copy]))
        #expect(harness.engine.items.count == count)
        #expect(harness.engine.items.contains { $0.id == existing.id })
        #expect(!harness.engine.items.contains { $0.id == copy.id })
    }

    @Test func theSamePageDeliveredTwiceAddsNothingAndMovesNothing() throws {
        var harness = TimelineHarness(count: 400)
        harness.open()
        harness.scroll(to: harness.engine.minOffset)
        let request = try #require(harness.pending)
        let page = harness.page(for: request)
        harness.answer()
        let loaded = harness.engine.backlog.count + harness.engine.items.count
        let offset = harness.engine.contentOffset
        // A retry delivers the same page again, with the old token
        let effects = harness.send(.pageLoaded(token: request.token, page: page))
        #expect(effects.allSatisfy { if case .requestPage = $0 { true } else { false } })
        #expect(harness.engine.backlog.count + harness.engine.items.count == loaded)
        #expect(harness.engine.contentOffset == offset)
        // The same rows inside a fresh reply are merged, not duplicated
        if let next = harness.pending {
            var merged = harness.page(for: next)
            merged.items += page.items
            harness.pending = nil
            harness.send(.pageLoaded(token: next.token, page: merged))
            #expect(harness.engine.invariantViolations().isEmpty)
        }
    }

    @Test func equalKeyGroupsOfFiftyAcrossPageBoundariesLoadOnceEach() throws {
        var harness = TimelineHarness(count: 40, pageSize: 20)
        // Three groups of 50 rows sharing (blockTime, timestamp) at the newest end
        for group in 0..<3 {
            for index in 0..<50 {
                harness.store.append(
                    TimelineHarness.item(blockTime: 900_000 + UInt64(group), timestamp: 7, tx: "g\(group)-\(index)"))
            }
        }
        harness.store.sort { $0.key < $1.key }
        harness.open()
        // The live path delivers group members under its own UUIDs: one already loaded, one not
        let loadedMember = try #require(harness.engine.items.last)
        let unloadedMember = harness.store[harness.store.count - 120]
        #expect(harness.engine.minY(of: unloadedMember.id) == nil)
        for member in [loadedMember, unloadedMember] {
            var live = TimelineHarness.item(
                blockTime: member.key.blockTime, timestamp: member.key.timestamp, tx: member.txID?.rawValue)
            live.status = member.status
            harness.send(.tailArrived([live]))
        }
        for _ in 0..<100 {
            harness.scroll(to: harness.engine.minOffset)
            harness.settle()
        }
        #expect(harness.engine.olderExhausted)
        // Every stored row exactly once, under the UUID the store knows
        #expect((harness.engine.backlog + harness.engine.items).map(\.id) == harness.store.map(\.id))
    }

    @Test func pagingPastTheStartStopsAndABackfillReopensIt() throws {
        var harness = TimelineHarness(count: 60, start: 100_000)
        harness.open()
        for _ in 0..<10 {
            harness.scroll(to: harness.engine.minOffset)
            harness.settle()
        }
        #expect(harness.engine.olderExhausted)
        let requests = harness.requests.count
        for _ in 0..<5 { harness.scroll(to: harness.engine.minOffset) }
        #expect(harness.requests.count == requests)
        // Older history arrives later (backfill): it shows and paging resumes
        let backfill = TimelineHarness.item(blockTime: 1_000, tx: "old")
        harness.store.insert(backfill, at: 0)
        harness.send(.upsert(backfill))
        #expect(!harness.engine.olderExhausted)
        #expect(harness.requests.count == requests + 1)
        harness.settle()
        harness.scroll(to: harness.engine.minOffset)
        #expect(harness.engine.items.first?.id == backfill.id)
    }

    @Test func staleRepliesAfterResetAreIgnored() throws {
        var harness = TimelineHarness(count: 300)
        harness.open()
        harness.scroll(to: harness.engine.minOffset)
        let stale = try #require(harness.pending)
        let stalePage = harness.page(for: stale)
        harness.send(.reset(.bottom))
        #expect(harness.pending?.direction == .newest)
        let effects = harness.send(.pageLoaded(token: stale.token, page: stalePage))
        #expect(effects.isEmpty)
        #expect(harness.engine.items.isEmpty)
        harness.settle()
        #expect(harness.engine.items.last?.id == harness.store.last?.id)
    }

    @Test func failuresStaySingleFlightUntilRetry() throws {
        var harness = TimelineHarness(count: 300)
        harness.open()
        harness.scroll(to: harness.engine.minOffset)
        let request = try #require(harness.pending)
        harness.pending = nil
        let effects = harness.send(.pageFailed(token: request.token))
        #expect(effects.contains(.pagingFailed(attempt: 1)))
        for _ in 0..<5 { harness.scroll(to: harness.engine.contentOffset - 10) }
        #expect(harness.pending == nil)
        harness.send(.retryPaging)
        let retried = try #require(harness.pending)
        #expect(retried.direction == request.direction)
        #expect(retried.token != request.token)
    }

    @Test func aPageThatMakesNoProgressDoesNotLoop() throws {
        var harness = TimelineHarness(count: 300)
        harness.open()
        harness.scroll(to: harness.engine.minOffset)
        let request = try #require(harness.pending)
        harness.pending = nil
        guard case .older(let cursor) = request.direction else {
            Issue.record("expected an older-page request")
            return
        }
        // A buggy store promises more but returns nothing past the cursor
        harness.send(.pageLoaded(token: request.token, page: TimelinePage(items: [], hasMore: true, boundary: cursor)))
        #expect(harness.pending == nil)
        for _ in 0..<5 { harness.scroll(to: harness.engine.minOffset) }
        #expect(harness.pending == nil)
    }

    @Test func aPageOfUndecodableRowsDoesNotEndPaging() {
        var harness = TimelineHarness(count: 200, pageSize: 20)
        // The 60 rows just below the newest page cannot be decrypted
        for item in harness.store[120..<180] { harness.undecodable.insert(item.id) }
        harness.open()
        for _ in 0..<40 {
            harness.scroll(to: harness.engine.minOffset)
            harness.settle()
        }
        let decodable = harness.store.filter { !harness.undecodable.contains($0.id) }
        #expect(harness.engine.olderExhausted)
        #expect((harness.engine.backlog + harness.engine.items).map(\.id) == decodable.map(\.id))
    }
}
