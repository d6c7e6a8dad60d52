import ChatHistory
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics
import Testing

@testable import TandemMessaging

/// Issue 43 item 2: the root a peer's row came under is evidence of what it reads, kept in the
/// conversation's routing state; rows whose source does not say change nothing.
@Suite("Message ingest: the peer's root as evidence")
struct MessageIngestRootTests {
    typealias World = MessageIngestTests.World

    func message(_ world: World, root: String?) throws -> IndexerContextualMessage {
        var row = try world.message(
            "gm", from: world.peerAddress, on: world.state.deterministic.myAlias, to: world.meAddress)
        row.root = root
        return row
    }

    @Test("a kchat: message from the peer makes the conversation write kchat:")
    func kchatMessageIsEvidence() throws {
        let world = try World()
        let plan = try world.ingest.message(
            try message(world, root: "kchat"), lookup: world.lookup(states: [world.state]))
        let routing = try #require(plan.routing)
        #expect(routing.peerRoot == RootEvidence(root: .kchat, at: UnixMillis(Int64(MessageIngestTests.blockTime))))
        #expect(routing.rootDecision == (.kchat, .evidence))
        #expect(plan.insert != nil)
    }

    @Test("a row from an indexer that does not say its root leaves the evidence as it was")
    func unknownRootIsNoEvidence() throws {
        let world = try World()
        var known = world.state
        known.recordRoot(.kchat, at: UnixMillis(1))
        let plan = try world.ingest.message(try message(world, root: nil), lookup: world.lookup(states: [known]))
        #expect(plan.routing?.peerRoot == RootEvidence(root: .kchat, at: UnixMillis(1)))
        let unknownName = try world.ingest.message(
            try message(world, root: "KCHAT"), lookup: world.lookup(states: [known]))
        #expect(unknownName.routing?.peerRoot == RootEvidence(root: .kchat, at: UnixMillis(1)))
    }

    @Test("a handshake's root is evidence too, and a later ciph_msg: row takes it back")
    func handshakeThenNewerRow() throws {
        let world = try World()
        var row = try world.handshake(
            from: world.peerAddress, to: world.meAddress, HandshakePayload())
        row.root = "kchat"
        let first = try world.ingest.handshake(row, lookup: world.lookup())
        let state = try #require(first.routing)
        #expect(state.writeRoot == .kchat)
        var later = try message(world, root: "ciph_msg")
        later.blockTime = MessageIngestTests.blockTime + 1
        let second = try world.ingest.message(later, lookup: world.lookup(states: [state]))
        let after = try #require(second.routing)
        #expect(after.rootDecision == (.ciphMsg, .evidence))
    }

    @Test("a payment's root updates a conversation we have, and starts none")
    func paymentRoot() throws {
        let world = try World()
        let memo = #"{"type":"payment","message":"for lunch","amount":150000000,"timestamp":1,"version":1}"#
        var row = IndexerPayment(
            txID: "p1", sender: world.peerAddress.description, receiver: world.meAddress.description,
            blockTime: MessageIngestTests.blockTime, amount: 150_000_000,
            message: try world.sealedHex(memo, to: world.meAddress))
        row.root = "kchat"
        let known = try world.ingest.payment(row, lookup: world.lookup(states: [world.state]))
        #expect(known.routing?.writeRoot == .kchat)
        #expect(known.insert != nil)
        let stranger = try world.ingest.payment(row, lookup: world.lookup())
        #expect(stranger.routing == nil)
        #expect(stranger.insert != nil)
    }
}
