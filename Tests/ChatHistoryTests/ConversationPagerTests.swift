import ChatHistory
import ChatTimeline
import Foundation
import TandemTesting
import Testing

@Suite struct ConversationPagerTests {
    static let undecryptable: [UInt8] = [0xFF]

    static func pager(_ fixture: StoreFixture, pageSize: Int = 20) -> ConversationPager {
        let engine = TimelineEngine(configuration: TimelineConfiguration(pageSize: pageSize)) { item in
            40 + Double(item.key.blockTime % 5) * 10
        }
        return ConversationPager(store: fixture.store, conversation: fixture.conversation, engine: engine) { message in
            message.body == Data(Self.undecryptable)
                ? nil : TimelineItem(key: message.key, txID: message.txID, kind: message.kind, status: message.status)
        }
    }

    static func open(_ pager: inout ConversationPager) {
        _ = pager.send(.viewportChanged(TimelineViewport(height: 600)))
        _ = pager.send(.reset(.bottom))
        _ = pager.settle()
    }

    static func readToTheStart(_ pager: inout ConversationPager) {
        for _ in 0..<200 where !(pager.engine.olderExhausted && pager.engine.backlog.isEmpty) {
            _ = pager.send(.userScrolled(offset: pager.engine.minOffset))
            _ = pager.settle()
        }
    }

    @Test func readsTheWholeConversationInOrderWithOneQueryAtATime() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        // Ties in (blockTime, timestamp) every 4 rows, so pages split equal-key groups
        let messages = (0..<500).map { fixture.message(blockTime: UInt64($0 / 4), txID: "tx\($0)") }
        var shuffle = SeededRandom(seed: 7)
        try fixture.store.save(contentsOf: messages.shuffled(using: &shuffle))
        var pager = Self.pager(fixture)
        Self.open(&pager)
        // Repeated triggers while a query waits do not add a second one
        _ = pager.send(.userScrolled(offset: pager.engine.minOffset))
        let waiting = pager.pendingRequest
        for _ in 0..<5 { _ = pager.send(.userScrolled(offset: pager.engine.minOffset)) }
        #expect(pager.pendingRequest == waiting)
        Self.readToTheStart(&pager)
        let loaded = pager.engine.backlog + pager.engine.items
        #expect(loaded.map(\.id) == messages.sorted { $0.key < $1.key }.map(\.id))
        // One newest page, then one query per older page of 20: no repeats, no overlaps
        #expect(pager.queriesRun == 1 + (500 - 20 + 19) / 20)
    }

    @Test func aRunOfUndecryptableRowsDoesNotEndPaging() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let messages = (0..<150).map { index in
            fixture.message(
                blockTime: UInt64(index), txID: "tx\(index)",
                body: (40..<100).contains(index) ? Self.undecryptable : [1])
        }
        try fixture.store.save(contentsOf: messages)
        var pager = Self.pager(fixture)
        Self.open(&pager)
        Self.readToTheStart(&pager)
        #expect(pager.engine.olderExhausted)
        let loaded = (pager.engine.backlog + pager.engine.items).map(\.id)
        #expect(loaded == messages.filter { $0.body != Data(Self.undecryptable) }.map(\.id))
    }

    @Test func aLiveDuplicateUnderAnotherUUIDShowsTheFirstUUIDOnce() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        var pager = Self.pager(fixture)
        Self.open(&pager)
        let first = fixture.message(blockTime: 10, txID: "tx-live")
        let second = fixture.message(blockTime: 10, txID: "tx-live")
        _ = try pager.receive(first)
        _ = try pager.receive(second)
        #expect(pager.engine.items.map(\.id) == [first.id])
        #expect(try fixture.store.count(in: fixture.conversation) == 1)
    }

    @Test func promotionKeepsTheRowAndItsPlaceInTheList() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        try fixture.store.save(contentsOf: (0..<5).map { fixture.message(blockTime: UInt64($0 * 10), txID: "tx\($0)") })
        var pager = Self.pager(fixture)
        Self.open(&pager)
        let pending = fixture.message(blockTime: 100, status: .pending)
        _ = try pager.receive(pending)
        let effects = try pager.promote(pending.id, txID: TxID("tx-sent"), blockTime: 101)
        let shown = try #require(pager.engine.items.last)
        #expect(shown.id == pending.id)
        #expect(shown.txID == TxID("tx-sent"))
        #expect(shown.status == .sent)
        #expect(!effects.contains { if case .windowChanged(let diff) = $0 { !diff.inserted.isEmpty } else { false } })
    }

    @Test func aPendingCopyPromotedToAKnownTxIDFoldsIntoTheFirstRow() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        var pager = Self.pager(fixture)
        Self.open(&pager)
        let network = fixture.message(blockTime: 50, txID: "tx-x")
        let pending = fixture.message(blockTime: 49, status: .pending)
        _ = try pager.receive(network)
        _ = try pager.receive(pending)
        _ = try pager.promote(pending.id, txID: TxID("tx-x"), blockTime: 50)
        #expect(pager.engine.items.map(\.id) == [network.id])
    }
}
