import TandemAPI
import TandemMessaging
import Testing

@Suite struct IndexerPagingTests {
    static func row(_ id: String, _ time: UInt64) -> IndexerHandshake {
        IndexerHandshake(txID: id, sender: "s", receiver: "r", blockTime: time, messagePayload: "00")
    }

    @Test func theNextCursorIsTheMaximumBlockTimeAndBoundaryRowsAreDroppedByTxID() {
        // Given a limit of 3 and a cursor at the start
        let paging = IndexerPaging(limit: 3)
        var cursor = IndexerCursor.start

        // When a full page arrives, then the inclusive cursor returns its last row again
        let first = paging.apply(page: [Self.row("a", 10), Self.row("b", 20), Self.row("c", 30)], to: &cursor)
        #expect(first.fresh.map(\.txID) == ["a", "b", "c"])
        #expect(first.more)
        #expect(cursor.blockTime == 30)
        let second = paging.apply(page: [Self.row("c", 30), Self.row("d", 30), Self.row("e", 40)], to: &cursor)

        // Then the boundary row is skipped, a new row at the same time is kept, and paging goes on
        #expect(second.fresh.map(\.txID) == ["d", "e"])
        #expect(second.more)
        #expect(cursor == IndexerCursor(blockTime: 40, seenAtBlockTime: ["e"]))
    }

    @Test func stopsOnAShortPage() {
        var cursor = IndexerCursor.start
        let result = IndexerPaging(limit: 3).apply(page: [Self.row("a", 10), Self.row("b", 20)], to: &cursor)
        #expect(result.fresh.count == 2)
        #expect(!result.more)
    }

    @Test func stopsWhenTheCursorDoesNotAdvance() {
        // A full page all at the cursor's own time would be asked for again forever (§10).
        var cursor = IndexerCursor(blockTime: 50, seenAtBlockTime: ["x"])
        let result = IndexerPaging(limit: 2).apply(page: [Self.row("x", 50), Self.row("y", 50)], to: &cursor)
        #expect(result.fresh.map(\.txID) == ["y"])
        #expect(!result.more)
    }

    @Test func olderRowsThanTheCursorAreNeverDeliveredAgain() {
        var cursor = IndexerCursor(blockTime: 50, seenAtBlockTime: ["x"])
        #expect(IndexerPaging().apply(page: [Self.row("old", 49)], to: &cursor).fresh.isEmpty)
    }

    @Test("a handshake whose sender the indexer has not resolved is read again later, not taken as seen")
    func anUnresolvedSenderHoldsTheCursor() {
        let paging = IndexerPaging(limit: 50)
        var cursor = IndexerCursor.start
        var unresolved = Self.row("u", 20)
        unresolved.sender = ""
        let first = paging.apply(page: [Self.row("a", 10), unresolved, Self.row("b", 30)], to: &cursor)
        // The rows around it are delivered; the cursor stays before it.
        #expect(first.fresh.map(\.txID) == ["a", "b"])
        #expect(cursor == IndexerCursor(blockTime: 10, seenAtBlockTime: ["a"]))
        #expect(!first.more)
        // Once resolved it comes, and the cursor moves on (b again: dropped later by its tx id).
        let second = paging.apply(page: [Self.row("u", 20), Self.row("b", 30)], to: &cursor)
        #expect(second.fresh.map(\.txID) == ["u", "b"])
        #expect(cursor.blockTime == 30)
    }

    @Test func aPaymentWithANullSenderIsNotFinal() {
        let payment = IndexerPayment(txID: "p", sender: nil, receiver: "r", blockTime: 1, amount: 1, message: "00")
        #expect(!payment.isFinal)
        #expect(Self.row("a", 1).isFinal)
    }
}
