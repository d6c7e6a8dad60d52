import ChatHistory
import ChatTimeline
import Foundation
import TandemTesting
import Testing

@Suite struct ChatHistoryStoreTests {
    @Test func promotionUpdatesThePendingRowInPlaceKeepingItsUUID() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        // Given a pending outgoing message without a txId
        let pending = fixture.message(blockTime: 1_000, status: .pending)
        try fixture.store.save(pending)
        // When it is promoted with its txId and chain time
        let outcome = try fixture.store.promote(pending.id, txID: TxID("tx-1"), blockTime: 1_500)
        // Then the same row carries them
        #expect(outcome == .updated(pending.id))
        let stored = try #require(try fixture.store.message(pending.id))
        #expect(stored.txID == TxID("tx-1"))
        #expect(stored.status == .sent)
        #expect(stored.blockTime == 1_500)
        #expect(try fixture.store.count(in: fixture.conversation) == 1)
        #expect(try fixture.store.message(txID: TxID("tx-1"))?.id == pending.id)
    }

    @Test("a reorg takes confirmed rows back to sent; only confirmed rows of the named tx ids change")
    func unconfirmMovesOnlyConfirmedRowsBack() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let confirmed = fixture.message(blockTime: 10, txID: "tx-a", status: .confirmed)
        let failed = fixture.message(blockTime: 11, txID: "tx-b", status: .failed)
        let other = fixture.message(blockTime: 12, txID: "tx-c", status: .confirmed)
        try fixture.store.save(contentsOf: [confirmed, failed, other])
        #expect(try fixture.store.unconfirm(txIDs: [TxID("tx-a"), TxID("tx-b"), TxID("tx-unknown")]) == 1)
        #expect(try fixture.store.message(confirmed.id)?.status == .sent)
        #expect(try fixture.store.message(failed.id)?.status == .failed)
        #expect(try fixture.store.message(other.id)?.status == .confirmed)
        // A later confirmation moves it forward again
        var again = confirmed
        again.status = .confirmed
        try fixture.store.save(again)
        #expect(try fixture.store.message(confirmed.id)?.status == .confirmed)
    }

    @Test func duplicateDeliveriesOfATxIDKeepTheFirstUUIDForever() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let first = fixture.message(blockTime: 10, txID: "tx-a", status: .sent)
        try fixture.store.save(first)
        // The same tx from another path, under another UUID and a newer status
        let second = fixture.message(blockTime: 10, txID: "tx-a", status: .confirmed)
        let outcome = try fixture.store.save(second)
        #expect(outcome.id == first.id)
        #expect(try fixture.store.message(second.id) == nil)
        #expect(try fixture.store.message(first.id)?.status == .confirmed)
        // A stale copy never downgrades it
        try fixture.store.save(fixture.message(blockTime: 10, txID: "tx-a", status: .pending))
        #expect(try fixture.store.message(first.id)?.status == .confirmed)
        #expect(try fixture.store.count(in: fixture.conversation) == 1)
    }

    @Test func promotingAPendingRowToAnAlreadyStoredTxIDFoldsItIntoTheFirstRow() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let network = fixture.message(blockTime: 20, txID: "tx-b", status: .sent)
        let pending = fixture.message(blockTime: 19, status: .pending)
        try fixture.store.save(contentsOf: [network, pending])
        let outcome = try fixture.store.promote(pending.id, txID: TxID("tx-b"), blockTime: 20)
        #expect(outcome == .merged(removed: pending.id, into: network.id))
        #expect(try fixture.store.message(pending.id) == nil)
        #expect(try fixture.store.count(in: fixture.conversation) == 1)
    }

    @Test func uuidSurvivesReopeningTheFile() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let message = fixture.message(blockTime: 5, txID: "tx-r")
        try fixture.store.save(message)
        let reopened = try ChatHistoryStore(path: fixture.path)
        #expect(try reopened.message(txID: TxID("tx-r"))?.id == message.id)
    }

    @Test(arguments: [1, 7, 50])
    func equalKeyGroupsStraddlingPageBoundariesAreNeitherSkippedNorRepeated(limit: Int) throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        // Given a group of 120 rows sharing (blockTime, timestamp) between ordinary rows
        var messages = (0..<40).map { fixture.message(blockTime: UInt64($0)) }
        messages += (0..<120).map { _ in fixture.message(blockTime: 100, timestamp: 100) }
        messages += (0..<40).map { fixture.message(blockTime: UInt64(200 + $0)) }
        var shuffle = SeededRandom(seed: 7)
        try fixture.store.save(contentsOf: messages.shuffled(using: &shuffle))
        // When paging from the newest
        let walk = try fixture.walkOlder(limit: limit)
        // Then every row comes exactly once, in the Swift key order
        #expect(walk.rows.map(\.id) == messages.sorted { $0.key < $1.key }.map(\.id))
        #expect(walk.pages == (messages.count + limit - 1) / limit)
    }

    @Test func deletingTheCursorRowStillYieldsTheCorrectOlderPage() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let messages = (0..<30).map { fixture.message(blockTime: UInt64($0 / 3)) }
        try fixture.store.save(contentsOf: messages)
        let expected = messages.sorted { $0.key < $1.key }
        let first = try fixture.store.newestPage(in: fixture.conversation, limit: 10)
        let cursor = try #require(first.boundary)
        try fixture.store.delete([cursor.id])
        let next = try fixture.store.page(in: fixture.conversation, olderThan: cursor, limit: 10)
        #expect(next.rows.map(\.id) == expected[10..<20].map(\.id))
        #expect(next.hasMore)
    }

    @Test func backfillOfOlderRowsReopensPagingPastTheOldCursor() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        try fixture.store.save(contentsOf: (0..<10).map { fixture.message(blockTime: UInt64(100 + $0)) })
        let walk = try fixture.walkOlder(limit: 4)
        let oldest = try #require(walk.rows.first?.key)
        let exhausted = try fixture.store.page(in: fixture.conversation, olderThan: oldest, limit: 4)
        #expect(exhausted.rows.isEmpty && !exhausted.hasMore)
        // When older history is backfilled (sync from the indexer)
        let backfill = (0..<6).map { fixture.message(blockTime: UInt64($0)) }
        try fixture.store.save(contentsOf: backfill)
        // Then the same cursor pages into it
        let reopened = try fixture.store.page(in: fixture.conversation, olderThan: oldest, limit: 4)
        #expect(reopened.rows.map(\.id) == backfill.suffix(4).map(\.id))
        #expect(reopened.hasMore)
    }

    @Test func olderPageQueryIsARowValueIndexSeek() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let plan = try fixture.store.olderPageQueryPlan().joined(separator: "\n")
        #expect(plan.contains("SEARCH message USING INDEX message_order"))
        #expect(plan.contains("(blockTime,timestamp,id)<(?,?,?)"))
        #expect(!plan.contains("TEMP B-TREE"))
    }

    @Test func newerPagesContinueExactlyAfterTheCursor() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let messages = (0..<25).map { fixture.message(blockTime: UInt64($0 / 5)) }
        try fixture.store.save(contentsOf: messages)
        let sorted = messages.sorted { $0.key < $1.key }
        let page = try fixture.store.page(in: fixture.conversation, newerThan: sorted[9].key, limit: 10)
        #expect(page.rows.map(\.id) == sorted[10..<20].map(\.id))
        #expect(page.boundary == sorted[19].key)
        #expect(page.hasMore)
    }

    @Test func rejectsBlockTimesSQLiteCannotStore() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let huge = fixture.message(blockTime: UInt64(Int64.max) + 1)
        #expect(throws: ChatHistoryError.blockTimeOutOfRange(huge.blockTime)) { try fixture.store.save(huge) }
        #expect(throws: ChatHistoryError.invalidPageLimit(0)) {
            try fixture.store.newestPage(in: fixture.conversation, limit: 0)
        }
    }
}
