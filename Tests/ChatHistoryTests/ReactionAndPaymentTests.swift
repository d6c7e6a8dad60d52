import ChatHistory
import ChatTimeline
import Foundation
import Testing

/// Issue 43 items 3 and 4 in the store: a payment row keeps its amount and root; reactions show on
/// their target, one per reactor, the newest winning, replays and older ones changing nothing.
@Suite struct ReactionAndPaymentTests {
    @Test func aPaymentRowKeepsItsAmountAndRootThroughSavesAndPages() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        var payment = fixture.message(blockTime: 1_000, txID: "pay1", body: Array("lunch".utf8))
        payment.kind = .payment
        payment.amountSompi = 150_000_000
        payment.root = "kchat"
        try fixture.store.save(payment)
        // A later copy without the amount (the same row read again) keeps what is known.
        var again = payment
        again.id = MessageID(UUID())
        again.amountSompi = nil
        again.root = nil
        try fixture.store.save(again)
        let rows = try fixture.store.newestPage(in: fixture.conversation, limit: 10).rows
        #expect(rows.count == 1)
        #expect(rows.first?.amountSompi == 150_000_000)
        #expect(rows.first?.root == "kchat")
        var tooMuch = fixture.message(blockTime: 2_000, txID: "pay2")
        tooMuch.amountSompi = UInt64(Int64.max) + 1
        #expect(throws: ChatHistoryError.amountOutOfRange(UInt64(Int64.max) + 1)) { try fixture.store.save(tooMuch) }
    }

    @Test func reactionsShowOnTheirTargetNewestPerReactor() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let store = fixture.store
        let target = TxID("target")
        // A reaction before its target is kept and shows once the target is stored.
        #expect(try store.react(target: target, reactor: "kaspa:qbob", emoji: "👍", txID: TxID("r1"), blockTime: 10))
        try store.save(fixture.message(blockTime: 5, txID: "target"))
        #expect(try store.message(txID: target)?.reactions == ["👍"])
        // A replay and an older reaction change nothing.
        #expect(try !store.react(target: target, reactor: "kaspa:qbob", emoji: "👍", txID: TxID("r1"), blockTime: 10))
        #expect(try !store.react(target: target, reactor: "kaspa:qbob", emoji: "😂", txID: TxID("r0"), blockTime: 9))
        #expect(try store.message(txID: target)?.reactions == ["👍"])
        // Another reactor adds theirs, after; a newer one replaces Bob's.
        try store.react(target: target, reactor: "kaspa:qcarol", emoji: "❤️", txID: TxID("r2"), blockTime: 11)
        try store.react(target: target, reactor: "kaspa:qbob", emoji: "🎉", txID: TxID("r3"), blockTime: 12)
        #expect(try store.message(txID: target)?.reactions == ["❤️", "🎉"])
        // A removal takes Bob's away, and his older add replayed later cannot bring it back.
        #expect(try store.react(target: target, reactor: "kaspa:qbob", emoji: nil, txID: TxID("r4"), blockTime: 13))
        #expect(try !store.react(target: target, reactor: "kaspa:qbob", emoji: "🎉", txID: TxID("r3"), blockTime: 12))
        let page = try store.newestPage(in: fixture.conversation, limit: 5)
        #expect(page.rows.first?.reactions == ["❤️"])
        // Saving the target again (a sync re-reading it) keeps its reactions.
        try store.save(fixture.message(blockTime: 5, txID: "target"))
        #expect(try store.message(txID: target)?.reactions == ["❤️"])
    }
}
