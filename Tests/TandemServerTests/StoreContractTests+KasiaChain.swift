import Foundation
import TandemBasics
import TandemServer
import TandemServerStore
import Testing

/// The chain ingester's store methods on both backends (issue 25 items 1–3): rows with their
/// acceptance, the cursor moving with them, reorgs, merging with relayed rows, and the
/// cursor check that keeps two ingesters from interleaving.
extension StoreContractTests {
    static func block(_ index: Int) -> String { String(format: "%064x", 0xb10c_0000 + index) }

    static func cursor(_ index: Int) -> KasiaChainCursor {
        KasiaChainCursor(
            block: block(index), daaScore: UInt64(1_000 + index), blockTime: UnixMillis(2_000 + Int64(index)),
            network: "testnet-10")
    }

    static func chainRow(_ draft: KasiaRecordDraft, block index: Int, time: Int64) -> KasiaChainRow {
        KasiaChainRow(
            draft: draft, blockTime: UnixMillis(time),
            acceptance: KasiaAcceptance(block: block(index), daaScore: UInt64(1_000 + index)))
    }

    @Test(arguments: backends)
    func chainRowsAreStoredWithTheirBlockTimeAndAcceptanceAndTheCursorMovesWithThem(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            #expect(try await store.kasiaChainCursor() == nil)
            let drafts = (1...3).map { Self.draft(900 + $0) }
            // Two rows share a block time: kasia-indexer's times are not unique.
            let page = KasiaChainPage(
                from: nil, removedBlocks: [],
                rows: [
                    Self.chainRow(drafts[0], block: 1, time: 500), Self.chainRow(drafts[1], block: 1, time: 500),
                    Self.chainRow(drafts[2], block: 2, time: 400),
                ], to: Self.cursor(2))
            let applied = try await store.applyKasiaChainPage(page, now: UnixMillis(10_000))
            #expect(applied == KasiaChainApplied(inserted: 3))
            #expect(try await store.kasiaChainCursor() == Self.cursor(2))
            let query = KasiaIndexQuery.contextualMessages(sender: "kaspa:alice", aliasHex: "616263")
            let rows = try await store.kasiaRecords(query, from: UnixMillis(0), limit: 10)
            // Ascending by block time, then tx id.
            #expect(rows.map(\.draft.txID) == [drafts[2], drafts[0], drafts[1]].map(\.txID))
            #expect(rows.map(\.blockTime) == [400, 500, 500].map(UnixMillis.init))
            #expect(rows[0].acceptance == KasiaAcceptance(block: Self.block(2), daaScore: 1_002))
            // Positions follow the page's order and commit order, from the clock.
            let feed = try await store.kasiaRecords(after: 0, watching: nil, limit: 10)
            #expect(feed.map(\.draft.txID) == drafts.map(\.txID))
            #expect(feed.map(\.position) == [10_000, 10_001, 10_002])
            // A relayed row after them is positioned after them; a relay resubmission of a
            // chain row answers the stored row.
            let relayed = try await store.appendKasiaRecord(Self.draft(950), now: UnixMillis(5))
            #expect(relayed.record.position == 10_003)
            #expect(try await store.appendKasiaRecord(drafts[0], now: UnixMillis(5)) == .existing(feed[0]))
            #expect(try await store.latestKasiaPosition() == 10_003)
        }
    }

    @Test(arguments: backends)
    func aPageReadFromAnotherCursorChangesNothing(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            _ = try await store.applyKasiaChainPage(
                KasiaChainPage(from: nil, removedBlocks: [], rows: [], to: Self.cursor(1)), now: UnixMillis(1))
            let stale = KasiaChainPage(
                from: nil, removedBlocks: [], rows: [Self.chainRow(Self.draft(1), block: 2, time: 1)],
                to: Self.cursor(2))
            await #expect(throws: ServerStoreError.chainCursorMoved(expected: nil, found: Self.block(1))) {
                try await store.applyKasiaChainPage(stale, now: UnixMillis(1))
            }
            #expect(try await store.kasiaRecord(txID: Self.draft(1).txID) == nil)
            #expect(try await store.kasiaChainCursor() == Self.cursor(1))
        }
    }

    @Test(arguments: backends)
    func aReorgRemovesChainOnlyRowsReturnsRelayedOnesAndRowsMoveWhenAcceptedElsewhere(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            let relayedDraft = Self.draft(1)
            let relayed = try await store.appendKasiaRecord(relayedDraft, now: UnixMillis(100)).record
            let chainOnly = Self.draft(2)
            let movesLater = Self.draft(3)
            // Block 1 accepts all three; the relayed row takes the block's time and acceptance.
            let first = try await store.applyKasiaChainPage(
                KasiaChainPage(
                    from: nil, removedBlocks: [],
                    rows: [
                        Self.chainRow(relayedDraft, block: 1, time: 90), Self.chainRow(chainOnly, block: 1, time: 91),
                        Self.chainRow(movesLater, block: 1, time: 92),
                    ], to: Self.cursor(1)), now: UnixMillis(200))
            #expect(first == KasiaChainApplied(inserted: 2, moved: 1))
            let accepted = try #require(try await store.kasiaRecord(txID: relayedDraft.txID))
            #expect(accepted.blockTime == UnixMillis(90))
            #expect(accepted.acceptance?.block == Self.block(1))
            #expect(accepted.position > relayed.position)
            // The same block again (a page read twice): nothing changes.
            let again = try await store.applyKasiaChainPage(
                KasiaChainPage(
                    from: Self.cursor(1), removedBlocks: [], rows: [Self.chainRow(chainOnly, block: 1, time: 91)],
                    to: Self.cursor(1)), now: UnixMillis(300))
            #expect(again == KasiaChainApplied())
            // A reorg removes block 1; block 7 on the new chain accepts only `movesLater`.
            let before = try await store.latestKasiaPosition() ?? 0
            let reorg = try await store.applyKasiaChainPage(
                KasiaChainPage(
                    from: Self.cursor(1), removedBlocks: [Self.block(1)],
                    rows: [Self.chainRow(movesLater, block: 7, time: 95)], to: Self.cursor(7)), now: UnixMillis(400))
            #expect(reorg == KasiaChainApplied(inserted: 0, moved: 1, removed: 1, unaccepted: 1))
            #expect(try await store.kasiaRecord(txID: chainOnly.txID) == nil)
            let back = try #require(try await store.kasiaRecord(txID: relayedDraft.txID))
            #expect(back.acceptance == nil)
            #expect(back.blockTime == relayed.blockTime)
            let moved = try #require(try await store.kasiaRecord(txID: movesLater.txID))
            #expect(moved.acceptance == KasiaAcceptance(block: Self.block(7), daaScore: 1_007))
            #expect(moved.blockTime == UnixMillis(95))
            // Both changed rows reach a stream resuming from before the reorg, in commit order.
            let changed = try await store.kasiaRecords(after: before, watching: nil, limit: 10)
            #expect(changed.map(\.draft.txID) == [relayedDraft.txID, movesLater.txID])
            #expect(try await store.kasiaChainCursor() == Self.cursor(7))
            #expect(try await store.kasiaCounts()[.contextualMessage] == 2)
        }
    }

    /// Issue 43 item 7: one reorg page that removes two chain blocks at once, each of which
    /// accepted a relayed row and a chain-only row, while a transaction of the higher one is
    /// accepted again by the new chain. Both backends execute one plan (`KasiaChainPlan`), so
    /// they agree on what is deleted, what goes back to unaccepted, and the order of positions.
    @Test(arguments: backends)
    func aReorgThatRemovesTwoBlocksAtOnceUndoesBothInTheNodesOrder(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            let relayedInOne = Self.draft(11)
            let relayedInTwo = Self.draft(12)
            _ = try await store.appendKasiaRecord(relayedInOne, now: UnixMillis(100))
            _ = try await store.appendKasiaRecord(relayedInTwo, now: UnixMillis(101))
            let chainOnlyInOne = Self.draft(13)
            let chainOnlyInTwo = Self.draft(14)
            let acceptedAgain = Self.draft(15)
            _ = try await store.applyKasiaChainPage(
                KasiaChainPage(
                    from: nil, removedBlocks: [],
                    rows: [
                        Self.chainRow(relayedInOne, block: 1, time: 90),
                        Self.chainRow(chainOnlyInOne, block: 1, time: 91),
                        Self.chainRow(relayedInTwo, block: 2, time: 92),
                        Self.chainRow(chainOnlyInTwo, block: 2, time: 93),
                        Self.chainRow(acceptedAgain, block: 2, time: 94),
                    ], to: Self.cursor(2)), now: UnixMillis(200))
            let before = try #require(try await store.latestKasiaPosition())
            // The node names the removed blocks highest first; block 8 of the new chain accepts
            // one of block 2's transactions again.
            let reorg = try await store.applyKasiaChainPage(
                KasiaChainPage(
                    from: Self.cursor(2), removedBlocks: [Self.block(2), Self.block(1)],
                    rows: [Self.chainRow(acceptedAgain, block: 8, time: 98)], to: Self.cursor(8)),
                now: UnixMillis(300))
            #expect(reorg == KasiaChainApplied(inserted: 0, moved: 1, removed: 2, unaccepted: 2))
            #expect(try await store.kasiaRecord(txID: chainOnlyInOne.txID) == nil)
            #expect(try await store.kasiaRecord(txID: chainOnlyInTwo.txID) == nil)
            for (draft, relayedAt) in [(relayedInOne, 100), (relayedInTwo, 101)] {
                let back = try #require(try await store.kasiaRecord(txID: draft.txID))
                #expect(back.acceptance == nil)
                #expect(back.blockTime == UnixMillis(Int64(relayedAt)))
            }
            let moved = try #require(try await store.kasiaRecord(txID: acceptedAgain.txID))
            #expect(moved.acceptance == KasiaAcceptance(block: Self.block(8), daaScore: 1_008))
            // A stream resuming from before the reorg sees block 2's undone row, then block 1's,
            // then the row the new chain accepted: the node's order, on both backends.
            let changed = try await store.kasiaRecords(after: before, watching: nil, limit: 10)
            #expect(changed.map(\.draft.txID) == [relayedInTwo.txID, relayedInOne.txID, acceptedAgain.txID])
            #expect(changed.map(\.position) == [300, 301, 302].map { Int64($0) })
            #expect(try await store.kasiaChainCursor() == Self.cursor(8))
        }
    }

    /// A page whose two added blocks both claim one transaction (a lying or confused node) stores
    /// it once, with the later block's acceptance, on both backends; PostgreSQL's one upsert would
    /// otherwise refuse to touch the row twice.
    @Test(arguments: backends)
    func aTransactionTwoBlocksOfOnePageClaimIsStoredOnceWithTheLaterBlock(backend: Backend) async throws {
        try await Self.withStore(backend) { store in
            let claimed = Self.draft(21)
            let other = Self.draft(22)
            let applied = try await store.applyKasiaChainPage(
                KasiaChainPage(
                    from: nil, removedBlocks: [],
                    rows: [
                        Self.chainRow(claimed, block: 3, time: 50), Self.chainRow(other, block: 3, time: 51),
                        Self.chainRow(claimed, block: 4, time: 52),
                    ], to: Self.cursor(4)), now: UnixMillis(1_000))
            #expect(applied == KasiaChainApplied(inserted: 2))
            let stored = try #require(try await store.kasiaRecord(txID: claimed.txID))
            #expect(stored.acceptance == KasiaAcceptance(block: Self.block(4), daaScore: 1_004))
            #expect(stored.blockTime == UnixMillis(52))
            let feed = try await store.kasiaRecords(after: 0, watching: nil, limit: 10)
            #expect(feed.map(\.draft.txID) == [other.txID, claimed.txID])
        }
    }
}
