import ChatHistory
import ChatTimeline
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics
import Testing

@testable import TandemMessaging

/// The pure ingest (issue 24 item 3): a row and the routing state in, history rows, contact and
/// routing updates out — no database, no transport. Each case is one row against one state of
/// the profile, and the plan it must produce.
@Suite("Message ingest, pure (issue 24 item 3)")
struct MessageIngestTests {
    /// Fixed keys: this wallet, the peer, and a stranger.
    static let keys = (
        me: "1de32ec684f4a3d850f896ba14c68d45f9d345934cdd410d090ab38213f00a7e",
        peer: "6c1f7d4e3bb0f4a8a4c6e77b5d2f0b9e1a3d5c7e9f1b3d5f7a9c1e3b5d7f9a1c",
        stranger: "3a9d1e5b7c2f4a6d8e0b1c3d5f7a9b2c4e6d8f0a1b3c5d7e9f2a4b6c8d0e1f3a"
    )
    static let now = UnixMillis(1_790_000_000_000)
    static let blockTime: UInt64 = 1_790_000_100_000

    /// This wallet and its peer: keys, addresses, the conversation states both sides derive.
    struct World {
        let me: PrivateKey
        let meAddress: KaspaAddress
        let peer: PrivateKey
        let peerAddress: KaspaAddress
        let strangerAddress: KaspaAddress
        let ingest: MessageIngest
        /// Our state of the conversation with the peer, as routing would have it after a handshake.
        let state: ConversationRoutingState

        init() throws {
            me = try PrivateKey(hex: MessageIngestTests.keys.me)
            peer = try PrivateKey(hex: MessageIngestTests.keys.peer)
            meAddress = KaspaAddress(publicKey: me.xOnlyPublicKey, network: .testnet)
            peerAddress = KaspaAddress(publicKey: peer.xOnlyPublicKey, network: .testnet)
            strangerAddress = KaspaAddress(
                publicKey: try PrivateKey(hex: MessageIngestTests.keys.stranger).xOnlyPublicKey, network: .testnet)
            ingest = MessageIngest(key: me, address: meAddress, policy: RoutingPolicy(), now: MessageIngestTests.now)
            state = try ConversationRoutingState(contact: peerAddress, privateKey: me, now: MessageIngestTests.now)
        }

        /// The stores' answers: `states` for routing, `stored` tx ids, live contacts.
        func lookup(
            states: [ConversationRoutingState] = [], stored: [StoredMessage] = [], live: Set<KaspaAddress> = []
        ) -> IngestLookup {
            IngestLookup(
                routingState: { address in states.first { $0.contactAddress == address } },
                storedMessage: { txID in stored.first { $0.txID == TxID(txID) } },
                ownAliasPeer: { alias in
                    states.first { $0.ownSentAliases(policy: RoutingPolicy()).contains(alias) }?.contactAddress
                },
                isLiveContact: { live.contains($0) })
        }

        func sealedHex(_ text: String, to address: KaspaAddress) throws -> String {
            Hex.encode(try KasiaCipher.seal(text, to: address))
        }

        func handshake(
            from sender: KaspaAddress, to receiver: KaspaAddress, _ payload: HandshakePayload, txID: String = "h1"
        ) throws -> IndexerHandshake {
            IndexerHandshake(
                txID: txID, sender: sender.description, receiver: receiver.description, blockTime: blockTime,
                messagePayload: try sealedHex(payload.jsonText, to: receiver))
        }

        /// A `comm` row from `sender` on `alias`, its body the base64 text of `text` sealed to `to`.
        func message(
            _ text: String, from sender: KaspaAddress, on alias: Alias, to recipient: KaspaAddress,
            txID: String = "m1"
        ) throws -> IndexerContextualMessage {
            let sealed = try KasiaCipher.seal(text, to: recipient)
            return IndexerContextualMessage(
                txID: txID, sender: sender.description, alias: Hex.encode(Array(alias.rawValue.utf8)),
                blockTime: blockTime, messagePayload: Hex.encode(Array(Data(sealed).base64EncodedString().utf8)))
        }

        /// Our `saved_handshake` stash naming the peer.
        func savedHandshakeStash() throws -> IndexerSelfStash {
            let saved = SavedHandshake(partnerAddress: peerAddress, isResponse: false, timestampMilliseconds: 1)
            return IndexerSelfStash(
                txID: "s1", owner: meAddress.description, scope: nil, blockTime: blockTime,
                stashedData: try sealedHex(
                    try saved.jsonText(policy: RoutingPolicy().selfStashWritePolicy), to: meAddress))
        }

        func stored(_ txID: String, direction: MessageDirection, status: DeliveryStatus = .sent) -> StoredMessage {
            StoredMessage(
                id: MessageID(UUID()), conversation: ConversationID(peerAddress.description), txID: TxID(txID),
                blockTime: 5, timestamp: 5, status: status, direction: direction, kind: .text, body: nil)
        }
    }

    /// What a plan does, without its fresh row ids.
    struct Outcome: Equatable, CustomStringConvertible {
        var routing: Bool = false
        var insert: String? = nil
        var update: String? = nil
        var kept: Bool = false
        var addContact: Bool = false
        var activity: Bool = false
        var announces: String? = nil

        init(
            routing: Bool = false, insert: String? = nil, update: String? = nil, kept: Bool = false,
            addContact: Bool = false, activity: Bool = false, announces: String? = nil
        ) {
            self.routing = routing
            self.insert = insert
            self.update = update
            self.kept = kept
            self.addContact = addContact
            self.activity = activity
            self.announces = announces
        }

        init(_ plan: IngestPlan) {
            routing = plan.routing != nil
            insert = plan.insert.map(Self.summary)
            update = plan.update.map(Self.summary)
            kept = plan.kept != nil
            addContact = plan.addContact != nil
            activity = plan.activity != nil
            announces = plan.announcement.map { "\($0.kind.rawValue) \($0.text)" }
        }

        static func summary(_ row: StoredMessage) -> String {
            let body = row.body.map { String(decoding: $0, as: UTF8.self) } ?? "nil"
            return "\(row.kind.rawValue) \(row.direction.rawValue) \(row.status.rawValue) \(body)"
        }

        var description: String {
            "routing \(routing) insert \(insert ?? "-") update \(update ?? "-") kept \(kept) add \(addContact) activity \(activity) announces \(announces ?? "-")"
        }

        static let nothing = Outcome()
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let plan: @Sendable (World) throws -> IngestPlan
        let expected: Outcome
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a peer's handshake to us: routing, the request placeholder, activity, announced",
            plan: { w in
                try w.ingest.handshake(
                    try w.handshake(
                        from: w.peerAddress, to: w.meAddress, HandshakePayload(alias: try Alias("aabbccddeeff"))),
                    lookup: w.lookup())
            },
            expected: Outcome(
                routing: true, insert: "handshake incoming sent [Request to communicate]", activity: true,
                announces: "handshake ")),
        Case(
            name: "a peer's handshake response: the accepted placeholder",
            plan: { w in
                try w.ingest.handshake(
                    try w.handshake(from: w.peerAddress, to: w.meAddress, HandshakePayload(isResponse: true)),
                    lookup: w.lookup(states: [w.state]))
            },
            expected: Outcome(
                routing: true, insert: "handshake incoming sent [Request accepted]", activity: true,
                announces: "handshake ")),
        Case(
            name: "a handshake to someone else changes nothing",
            plan: { w in
                try w.ingest.handshake(
                    try w.handshake(from: w.peerAddress, to: w.strangerAddress, HandshakePayload()), lookup: w.lookup())
            },
            expected: .nothing),
        Case(
            name: "a handshake row naming us but sealed to another key changes nothing",
            plan: { w in
                var row = try w.handshake(from: w.peerAddress, to: w.strangerAddress, HandshakePayload())
                row.receiver = w.meAddress.description
                return try w.ingest.handshake(row, lookup: w.lookup())
            },
            expected: .nothing),
        Case(
            name: "a sealed text that is not handshake JSON changes nothing",
            plan: { w in
                try w.ingest.handshake(
                    IndexerHandshake(
                        txID: "h2", sender: w.peerAddress.description, receiver: w.meAddress.description,
                        blockTime: blockTime, messagePayload: try w.sealedHex("hello", to: w.meAddress)),
                    lookup: w.lookup())
            },
            expected: .nothing),
        Case(
            name: "our own handshake: the sent placeholder only",
            plan: { w in
                w.ingest.ownHandshake(try w.handshake(from: w.meAddress, to: w.peerAddress, HandshakePayload()))
            },
            expected: Outcome(insert: "handshake outgoing sent [Handshake sent]")),
        Case(
            name: "a peer's message on the alias we read: the text, routing evidence, activity, announced",
            plan: { w in
                try w.ingest.message(
                    try w.message("héllo 👋", from: w.peerAddress, on: w.state.deterministic.myAlias, to: w.meAddress),
                    lookup: w.lookup(states: [w.state]))
            },
            expected: Outcome(
                routing: true, insert: "text incoming sent héllo 👋", activity: true, announces: "text héllo 👋")),
        Case(
            name: "a peer's message on an alias we do not read changes nothing",
            plan: { w in
                try w.ingest.message(
                    try w.message("x", from: w.peerAddress, on: try Alias("0123456789ab"), to: w.meAddress),
                    lookup: w.lookup(states: [w.state]))
            },
            expected: .nothing),
        Case(
            name: "a message from someone we have no conversation with changes nothing",
            plan: { w in
                try w.ingest.message(
                    try w.message("x", from: w.peerAddress, on: w.state.deterministic.myAlias, to: w.meAddress),
                    lookup: w.lookup())
            },
            expected: .nothing),
        Case(
            name: "a message already stored under its tx id changes nothing",
            plan: { w in
                try w.ingest.message(
                    try w.message("x", from: w.peerAddress, on: w.state.deterministic.myAlias, to: w.meAddress),
                    lookup: w.lookup(states: [w.state], stored: [w.stored("m1", direction: .incoming)]))
            },
            expected: .nothing),
        Case(
            name: "a message on our alias sealed to someone else changes nothing",
            plan: { w in
                try w.ingest.message(
                    try w.message(
                        "x", from: w.peerAddress, on: w.state.deterministic.myAlias, to: w.strangerAddress),
                    lookup: w.lookup(states: [w.state]))
            },
            expected: .nothing),
        Case(
            name: "our own message, stored as sent: confirmed",
            plan: { w in
                try w.ingest.message(
                    try w.message("x", from: w.meAddress, on: w.state.deterministic.theirAlias, to: w.peerAddress),
                    lookup: w.lookup(states: [w.state], stored: [w.stored("m1", direction: .outgoing)]))
            },
            expected: Outcome(update: "text outgoing confirmed nil")),
        Case(
            name: "our own message from another device: a confirmed row with no text, after any kept submission",
            plan: { w in
                try w.ingest.message(
                    try w.message("x", from: w.meAddress, on: w.state.deterministic.theirAlias, to: w.peerAddress),
                    lookup: w.lookup(states: [w.state]))
            },
            expected: Outcome(insert: "text outgoing confirmed nil", kept: true, activity: true)),
        Case(
            name: "our own message on an alias of no conversation: only a kept submission can claim it",
            plan: { w in
                try w.ingest.message(
                    try w.message("x", from: w.meAddress, on: try Alias("0123456789ab"), to: w.peerAddress),
                    lookup: w.lookup(states: [w.state]))
            },
            expected: Outcome(kept: true)),
        Case(
            name: "our saved handshake for a partner who is not a contact: routing and the contact back",
            plan: { w in try w.ingest.savedHandshake(try w.savedHandshakeStash(), lookup: w.lookup()) },
            expected: Outcome(routing: true, addContact: true)),
        Case(
            name: "our saved handshake for a live contact: routing only",
            plan: { w in
                try w.ingest.savedHandshake(try w.savedHandshakeStash(), lookup: w.lookup(live: [w.peerAddress]))
            },
            expected: Outcome(routing: true)),
        Case(
            name: "someone else's stash changes nothing",
            plan: { w in
                try w.ingest.savedHandshake(
                    IndexerSelfStash(
                        txID: "s1", owner: w.peerAddress.description, scope: nil, blockTime: blockTime,
                        stashedData: try w.sealedHex("{}", to: w.meAddress)),
                    lookup: w.lookup())
            },
            expected: .nothing),
        Case(
            name: "a payment to us, the web's hex text of the sealed bytes: its memo",
            plan: { w in
                let sealed = try w.sealedHex(#"{"type":"payment","message":"for lunch"}"#, to: w.meAddress)
                return try w.ingest.payment(
                    IndexerPayment(
                        txID: "p1", sender: w.peerAddress.description, receiver: w.meAddress.description,
                        blockTime: blockTime, amount: 500, message: Hex.encode(Array(sealed.utf8))),
                    lookup: w.lookup())
            },
            expected: Outcome(
                insert: "payment incoming sent for lunch", activity: true, announces: "payment for lunch")),
        Case(
            name: "a payment from us changes nothing",
            plan: { w in
                try w.ingest.payment(
                    IndexerPayment(
                        txID: "p1", sender: w.meAddress.description, receiver: w.meAddress.description,
                        blockTime: blockTime, amount: 500, message: try w.sealedHex("x", to: w.meAddress)),
                    lookup: w.lookup())
            },
            expected: .nothing),
        Case(
            name: "a broadcast: stored under its channel, no contact",
            plan: { w in
                try w.ingest.broadcast(
                    IndexerBroadcast(
                        txID: "b1", sender: w.strangerAddress.description, channel: Hex.encode(Array("news".utf8)),
                        blockTime: blockTime, message: Hex.encode(Array("hi all".utf8))),
                    lookup: w.lookup())
            },
            expected: Outcome(insert: "text incoming sent hi all", announces: "broadcast hi all")),
    ]

    @Test("each row against the profile's state gives its plan", arguments: cases)
    func plans(_ testCase: Case) throws {
        let world = try World()
        let plan = try testCase.plan(world)
        #expect(Outcome(plan) == testCase.expected, "\(Outcome(plan))")
    }

    @Test("a peer's message moves routing: the alias read is recorded as deterministic traffic")
    func messageUpdatesRouting() throws {
        let w = try World()
        let plan = try w.ingest.message(
            try w.message("hi", from: w.peerAddress, on: w.state.deterministic.myAlias, to: w.meAddress),
            lookup: w.lookup(states: [w.state]))
        let routing = try #require(plan.routing)
        #expect(routing.lastDeterministicIncomingAt == MessageIngest.time(Self.blockTime))
        #expect(w.state.lastDeterministicIncomingAt == nil)
        #expect(plan.insert?.conversation == ConversationID(w.peerAddress.description))
        #expect(plan.insert?.txID == TxID("m1"))
        #expect(plan.announcement?.id == plan.insert?.id)
    }

    @Test("a legacy handshake teaches routing the peer's alias, which a message then uses")
    func legacyHandshakeThenMessage() throws {
        let w = try World()
        let legacy = try Alias("a1b2c3d4e5f6")
        let handshake = try w.ingest.handshake(
            try w.handshake(from: w.peerAddress, to: w.meAddress, HandshakePayload(alias: legacy)), lookup: w.lookup())
        let learned = try #require(handshake.routing)
        #expect(learned.legacyIncomingAliases.contains(legacy))
        let message = try w.ingest.message(
            try w.message("on legacy", from: w.peerAddress, on: legacy, to: w.meAddress),
            lookup: w.lookup(states: [learned]))
        #expect(Outcome(message).insert == "text incoming sent on legacy")
        #expect(
            Outcome(
                try w.ingest.message(
                    try w.message("on legacy", from: w.peerAddress, on: legacy, to: w.meAddress),
                    lookup: w.lookup(states: [w.state]))) == .nothing)
    }

    @Test("a new conversation changes the watched set; a message on an alias already read does not")
    func watchSetChanges() throws {
        let w = try World()
        let handshake = try w.ingest.handshake(
            try w.handshake(from: w.peerAddress, to: w.meAddress, HandshakePayload(alias: try Alias("a1b2c3d4e5f6"))),
            lookup: w.lookup())
        #expect(handshake.changesWatchSet)
        let message = try w.ingest.message(
            try w.message("hi", from: w.peerAddress, on: w.state.deterministic.myAlias, to: w.meAddress),
            lookup: w.lookup(states: [w.state]))
        #expect(message.routing != nil)
        #expect(!message.changesWatchSet)
        let stash = try w.ingest.savedHandshake(try w.savedHandshakeStash(), lookup: w.lookup(states: [w.state]))
        #expect(!stash.changesWatchSet)
        #expect(try w.ingest.savedHandshake(try w.savedHandshakeStash(), lookup: w.lookup()).changesWatchSet)
    }

    @Test("a stored row's tx id in a plan stays the row's: own confirmations keep the row id")
    func confirmationKeepsRow() throws {
        let w = try World()
        let stored = w.stored("m9", direction: .outgoing)
        let plan = try w.ingest.message(
            try w.message("x", from: w.meAddress, on: w.state.deterministic.theirAlias, to: w.peerAddress, txID: "m9"),
            lookup: w.lookup(states: [w.state], stored: [stored]))
        #expect(plan.update?.id == stored.id)
        #expect(plan.update?.blockTime == Self.blockTime)
    }
}
