import ChatHistory
import ChatTimeline
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics
import Testing

@testable import TandemMessaging

/// Issue 50 item 7: a payment is verified only when a chain block accepted it. A row only relayed
/// (or seen in a mempool) is stored unverified and never shown as paid; the same payment seen
/// accepted later verifies the row, with the amount on chain.
@Suite("Message ingest: unverified payments (issue 50 item 7)")
struct MessageIngestPaymentTests {
    typealias World = MessageIngestTests.World

    func row(
        _ world: World, txID: String = "p1", from sender: KaspaAddress? = nil, to receiver: KaspaAddress? = nil,
        amount: UInt64 = 500, memo: String = "rent", accepted: Bool = false, verified: Bool? = nil
    ) throws -> IndexerPayment {
        let to = receiver ?? world.meAddress
        var row = IndexerPayment(
            txID: txID, sender: (sender ?? world.peerAddress).description, receiver: to.description,
            blockTime: MessageIngestTests.blockTime, amount: amount,
            message: try world.sealedHex(#"{"type":"payment","message":"\#(memo)"}"#, to: to),
            acceptingBlock: accepted ? String(repeating: "ab", count: 32) : nil, acceptingDAAScore: accepted ? 9 : nil)
        row.verified = verified
        return row
    }

    @Test("what says a payment happened: the server's flag first, else an accepting block")
    func verifiedMember() throws {
        let world = try World()
        #expect(try row(world).isVerified == false)
        #expect(try row(world, accepted: true).isVerified)
        #expect(try row(world, accepted: true, verified: false).isVerified == false)
        #expect(try row(world, verified: true).isVerified)
        let decoded = try JSONDecoder().decode(
            IndexerPayment.self,
            from: Data(
                #"{"tx_id":"t","sender":null,"receiver":"r","block_time":1,"amount":2,"message":"","accepting_block":null,"accepting_daa_score":null,"root":"kchat","verified":false}"#
                    .utf8))
        #expect(decoded.verified == false && decoded.isVerified == false)
    }

    @Test("a relayed payment is stored unverified and reads as such; an accepted one as received")
    func relayedIsUnverified() throws {
        let world = try World()
        let relayed = try world.ingest.payment(try row(world, amount: 150_000_000), lookup: world.lookup())
        let stored = try #require(relayed.insert)
        #expect(!stored.isVerifiedPayment)
        #expect(relayed.announcement?.verified == false)
        #expect(stored.displayText == "payment of 1.50000000 KAS (unverified): rent")
        let accepted = try world.ingest.payment(
            try row(world, amount: 150_000_000, accepted: true), lookup: world.lookup())
        #expect(try #require(accepted.insert).isVerifiedPayment)
        #expect(accepted.announcement?.verified == true)
        #expect(try #require(accepted.insert).displayText == "received 1.50000000 KAS: rent")
    }

    @Test("the same payment seen accepted verifies the stored row once, and a relayed copy changes nothing")
    func laterAcceptanceVerifies() throws {
        let world = try World()
        let stored = try #require(try world.ingest.payment(try row(world), lookup: world.lookup()).insert)
        let lookup = world.lookup(stored: [stored])
        #expect(try world.ingest.payment(try row(world), lookup: lookup).isNothing)
        let verified = try world.ingest.payment(try row(world, accepted: true), lookup: lookup)
        let update = try #require(verified.update)
        #expect(update.id == stored.id && update.isVerifiedPayment)
        #expect(verified.announcement?.kind == .paymentVerified)
        #expect(verified.announcement?.id == stored.id)
        #expect(verified.insert == nil)
        #expect(
            try world.ingest.payment(try row(world, accepted: true), lookup: world.lookup(stored: [update])).isNothing)
    }

    @Test("a KaChat payment notice claims an amount; the accepted payment under its tx id puts the chain's")
    func noticeThenChain() throws {
        let world = try World()
        let notice = try world.message(
            #"{"type":"payment_notice","txId":"p1","amountSompi":900000000000,"address":"kaspa:q","memo":"rent"}"#,
            from: world.peerAddress, on: world.state.deterministic.myAlias, to: world.meAddress, txID: "n1")
        let claimed = try world.ingest.message(notice, lookup: world.lookup(states: [world.state]))
        let stored = try #require(claimed.insert)
        #expect(!stored.isVerifiedPayment)
        #expect(claimed.announcement?.verified == false)
        let chain = try world.ingest.payment(
            try row(world, amount: 500, accepted: true), lookup: world.lookup(stored: [stored]))
        #expect(chain.update?.amountSompi == 500)
        #expect(chain.update?.isVerifiedPayment == true)
        // A notice naming a stranger's payment to us is not verified by that payment.
        let strangers = try world.ingest.payment(
            try row(world, from: world.strangerAddress, accepted: true), lookup: world.lookup(stored: [stored]))
        #expect(strangers.isNothing)
    }

    @Test("our own payment: verified when seen accepted, added when sent from another device; pending changes nothing")
    func ownPayments() throws {
        let world = try World()
        let pending = try row(world, from: world.meAddress, to: world.peerAddress)
        #expect(try world.ingest.payment(pending, lookup: world.lookup()).isNothing)
        let accepted = try row(world, from: world.meAddress, to: world.peerAddress, accepted: true)
        var sent = world.stored("p1", direction: .outgoing)
        sent.kind = .payment
        sent.amountSompi = 500
        let verified = try world.ingest.payment(accepted, lookup: world.lookup(stored: [sent]))
        #expect(verified.update?.id == sent.id)
        #expect(verified.update?.isVerifiedPayment == true)
        #expect(verified.update?.displayText.hasPrefix("paid 0.00000500 KAS") == true)
        let elsewhere = try world.ingest.payment(accepted, lookup: world.lookup())
        let added = try #require(elsewhere.insert)
        #expect(added.direction == .outgoing && added.isVerifiedPayment && added.body == nil)
        #expect(added.conversation.rawValue == world.peerAddress.description)
        #expect(added.amountSompi == 500)
    }
}
