import ChatHistory
import ChatTimeline
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics
import Testing

@testable import TandemMessaging

/// Issue 43 item 4: KaChat's envelopes inside a peer's message become what KaChat shows, never
/// raw JSON; unknown types stay text.
@Suite("Message ingest: KaChat's envelopes")
struct MessageIngestEnvelopeTests {
    typealias World = MessageIngestTests.World

    func plan(_ text: String, _ world: World, stored: [StoredMessage] = []) throws -> IngestPlan {
        let row = try world.message(
            text, from: world.peerAddress, on: world.state.deterministic.myAlias, to: world.meAddress, txID: "env1")
        return try world.ingest.message(row, lookup: world.lookup(states: [world.state], stored: stored))
    }

    @Test("a reaction goes to its target, with no row of its own")
    func reaction() throws {
        let world = try World()
        let plan = try plan(#"{"type":"reaction","targetTxId":"t1","emoji":"👍","action":"add"}"#, world)
        #expect(plan.insert == nil)
        #expect(plan.announcement == nil)
        #expect(
            plan.reaction
                == ReactionChange(
                    target: "t1", reactor: world.peerAddress, emoji: "👍", txID: "env1",
                    blockTime: MessageIngestTests.blockTime))
        #expect(plan.routing != nil, "the message still counts for routing")
    }

    @Test("a payment notice is a payment row under the notice's transaction id, once")
    func paymentNotice() throws {
        let world = try World()
        let text = #"{"type":"payment_notice","txId":"pn1","amountSompi":250000000,"address":"kaspa:q","memo":"tip"}"#
        let first = try plan(text, world)
        let row = try #require(first.insert)
        #expect(row.txID == TxID("pn1"))
        #expect(row.kind == .payment)
        #expect(row.amountSompi == 250_000_000)
        #expect(row.body == Data("tip".utf8))
        #expect(first.announcement?.kind == .payment)
        #expect(first.announcement?.amountSompi == 250_000_000)
        let replay = try plan(text, world, stored: [row])
        #expect(replay.insert == nil)
    }

    @Test("fresh-address envelopes are consumed unseen; calls and chess are a short line")
    func consumedAndShort() throws {
        let world = try World()
        let pool = try plan(#"{"type":"addr_pool","addresses":["kaspa:q"]}"#, world)
        #expect(pool.insert == nil && pool.announcement == nil && pool.reaction == nil)
        let call = try plan(#"{"type":"call_invite","callId":"c"}"#, world)
        #expect(call.insert?.body == Data("[call invite: not supported here]".utf8))
        let reply = try plan(#"{"type":"reply","replyToId":"x","replyToPreview":"lunch?","text":"yes"}"#, world)
        #expect(reply.insert?.body == Data("> lunch?\nyes".utf8))
    }

    @Test("an unknown type is shown as its text, as KaChat shows it")
    func unknownIsText() throws {
        let world = try World()
        let text = #"{"type":"sticker","id":7}"#
        #expect(try plan(text, world).insert?.body == Data(text.utf8))
    }

    @Test("an edit replaces the text of the sender's own earlier message, and only that")
    func edit() throws {
        let world = try World()
        var original = world.stored("m0", direction: .incoming)
        original.body = Data("helo".utf8)
        let fixed = try plan(#"{"type":"edit","targetTxId":"m0","text":"hello"}"#, world, stored: [original])
        #expect(fixed.update?.id == original.id)
        #expect(fixed.update?.body == Data("hello".utf8))
        let ours = world.stored("m1", direction: .outgoing)
        #expect(try plan(#"{"type":"edit","targetTxId":"m1","text":"x"}"#, world, stored: [ours]).update == nil)
    }
}
