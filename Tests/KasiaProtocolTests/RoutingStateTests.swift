import KasiaProtocol
import KaspaCrypto
import TandemBasics
import Testing

/// Seed 000 §8 unit tests: routing selection per mode and stage, capability detection.
@Suite("Conversation routing state")
struct RoutingStateTests {
    let me = PrivateKey.generate()
    let peer = PrivateKey.generate()
    var peerAddress: KaspaAddress { KaspaAddress(publicKey: peer.xOnlyPublicKey) }
    let legacyIn = Alias.random()
    let legacyOut = Alias.random()

    func legacyState() throws -> ConversationRoutingState {
        try ConversationRoutingState(
            contact: peerAddress, privateKey: me, legacyIncoming: [legacyIn],
            legacyOutgoing: [legacyOut], now: UnixMillis(1_000))
    }

    @Test func newContactsAreDeterministicOnlyAndLegacyOnesHybrid() throws {
        let fresh = try ConversationRoutingState(contact: peerAddress, privateKey: me, now: UnixMillis(0))
        #expect(fresh.mode == .deterministicOnly)
        #expect(try legacyState().mode == .hybrid)
        #expect(fresh.deterministic == (try AliasPair(privateKey: me, peer: peerAddress)))
    }

    @Test("incoming sets per mode and stage")
    func incomingAliasSets() throws {
        var state = try legacyState()
        let det = state.deterministic
        #expect(state.incomingAliases(policy: .init(stage: .a), now: UnixMillis(2_000)) == [det.myAlias, legacyIn])
        #expect(state.incomingAliases(policy: .init(stage: .b), now: UnixMillis(2_000)) == [det.myAlias, legacyIn])
        #expect(state.incomingAliases(policy: .init(stage: .d), now: UnixMillis(2_000)) == [det.myAlias])
        // Stage C: legacy is read only while traffic is recent.
        let c = RoutingPolicy(stage: .c, retentionMilliseconds: 10_000)
        #expect(state.incomingAliases(policy: c, now: UnixMillis(5_000)) == [det.myAlias, legacyIn])
        #expect(state.incomingAliases(policy: c, now: UnixMillis(50_000)) == [det.myAlias])
        state.mode = .legacyOnly
        #expect(state.incomingAliases(policy: .init(stage: .a), now: UnixMillis(0)).contains(legacyIn))
        state.mode = .deterministicOnly
        #expect(state.incomingAliases(policy: .init(stage: .a), now: UnixMillis(0)) == [det.myAlias])
        #expect(state.ownSentAliases(policy: .init(stage: .a)) == [det.theirAlias, legacyOut])
        #expect(state.ownSentAliases(policy: .init(stage: .d)) == [det.theirAlias])
    }

    @Test("outgoing alias per mode and stage")
    func outgoingSelection() throws {
        var state = try legacyState()
        let a = RoutingPolicy(stage: .a)
        #expect(state.sendAlias(policy: a) == legacyOut)
        #expect(state.sendAlias(policy: .init(stage: .b)) == state.deterministic.theirAlias)
        #expect(state.sendAlias(policy: .init(stage: .d)) == state.deterministic.theirAlias)
        state.mode = .legacyOnly
        #expect(state.sendAlias(policy: a) == legacyOut)
        state.mode = .hybrid
        state.record(.explicitHint)
        #expect(state.sendAlias(policy: a) == state.deterministic.theirAlias)
        let other = Alias.random()
        state.legacyOutgoingAliases.insert(other)
        state.peerSupportsDeterministic = false
        #expect(state.sendAlias(policy: a) == min(other, legacyOut), "the smallest legacy alias is primary")
    }

    @Test("every kind of capability evidence flips the peer", arguments: CapabilityEvidence.allCases)
    func evidenceFlipsToDeterministic(evidence: CapabilityEvidence) throws {
        var state = try legacyState()
        state.record(evidence)
        #expect(state.peerSupportsDeterministic)
        #expect(state.sendAlias(policy: .init(stage: .a)) == state.deterministic.theirAlias)
        #expect(state.mode == .hybrid, "legacy incoming stays readable for the retention window")
        var fresh = try ConversationRoutingState(contact: peerAddress, privateKey: me, now: UnixMillis(0))
        fresh.record(evidence)
        #expect(fresh.mode == .deterministicOnly)
    }

    @Test("capability evidence arrives through messages and handshakes")
    func evidenceFromTraffic() throws {
        let a = RoutingPolicy(stage: .a)
        var byMessage = try legacyState()
        #expect(byMessage.receiveMessage(on: legacyIn, at: UnixMillis(2_000), policy: a) == .legacy)
        #expect(!byMessage.peerSupportsDeterministic)
        #expect(
            byMessage.receiveMessage(on: byMessage.deterministic.myAlias, at: UnixMillis(3_000), policy: a)
                == .deterministic)
        #expect(byMessage.peerSupportsDeterministic && byMessage.lastDeterministicIncomingAt == UnixMillis(3_000))
        #expect(byMessage.receiveMessage(on: Alias.random(), at: UnixMillis(3_000), policy: a) == .ignored)

        var byAliasless = try legacyState()
        byAliasless.receiveHandshake(HandshakePayload(timestamp: .milliseconds(1)), at: UnixMillis(1), policy: a)
        #expect(byAliasless.peerSupportsDeterministic)

        var byHint = try legacyState()
        byHint.receiveHandshake(
            HandshakePayload(alias: Alias.random(), supportsDeterministicAliases: true), at: UnixMillis(1), policy: a)
        #expect(byHint.peerSupportsDeterministic)
    }

    @Test("a handshake version is never evidence and a version above 1 is refused")
    func versionIsNotEvidence() throws {
        var state = try legacyState()
        let legacyPeerAlias = Alias.random()
        state.receiveHandshake(
            HandshakePayload(alias: legacyPeerAlias, version: 1), at: UnixMillis(5), policy: .init(stage: .a))
        #expect(!state.peerSupportsDeterministic)
        #expect(state.legacyIncomingAliases.contains(legacyPeerAlias))
        #expect(throws: HandshakeError.unsupportedVersion(2)) {
            try HandshakePayload(decoding: #"{"type":"handshake","alias":"a1b2c3d4e5f6","version":2}"#)
        }
    }

    @Test("handshake writes per stage; the compatibility alias is the actual outgoing alias")
    func handshakeWritePolicy() throws {
        var state = try legacyState()
        let a = RoutingPolicy(stage: .a)
        let b = RoutingPolicy(stage: .b)
        let d = RoutingPolicy(stage: .d)
        #expect(state.handshakeAliasPolicy(policy: a) == .compatibility(outgoingAlias: legacyOut))
        #expect(state.handshakeAliasPolicy(policy: b) == .compatibility(outgoingAlias: state.deterministic.theirAlias))
        #expect(state.handshakeAliasPolicy(policy: d) == .aliasless)
        state.record(.userToggle)
        #expect(
            state.handshakeAliasPolicy(policy: a) == .compatibility(outgoingAlias: state.deterministic.theirAlias),
            "never deterministicMyAlias")
        #expect(state.handshakeAliasPolicy(policy: b) == .aliasless)
        let payload = state.handshake(policy: a, isResponse: false, timestampMs: 1, conversationID: nil)
        #expect(payload.version == 1 && payload.alias == state.deterministic.theirAlias)
        #expect(payload.supportsDeterministicAliases == true)
    }

    @Test("a response carries the request's conversation id; a malformed id is not kept")
    func conversationIDIsEchoed() throws {
        var state = try ConversationRoutingState(contact: peerAddress, privateKey: me, now: UnixMillis(0))
        state.receiveHandshake(
            HandshakePayload(conversationID: "NOT-AN-ID!!!"), at: UnixMillis(1), policy: .init(stage: .a))
        #expect(state.conversationID == nil)
        state.receiveHandshake(
            HandshakePayload(conversationID: "0123456789ab"), at: UnixMillis(2), policy: .init(stage: .a))
        state.receiveHandshake(
            HandshakePayload(conversationID: "ba9876543210"), at: UnixMillis(3), policy: .init(stage: .a))
        #expect(state.conversationID == "0123456789ab", "the first id stays the conversation's")
        let response = state.handshake(
            policy: .init(stage: .a), isResponse: true, timestampMs: 4, conversationID: state.conversationID)
        #expect(response.conversationID == "0123456789ab")

        var opener = try ConversationRoutingState(contact: peerAddress, privateKey: me, now: UnixMillis(0))
        opener.recordHandshakeSent(
            opener.handshake(
                policy: .init(stage: .a), isResponse: false, timestampMs: 1, conversationID: "00aa11bb22cc"))
        #expect(opener.conversationID == "00aa11bb22cc")
    }

    @Test("composer: handshake before flipping a legacy peer, warnings where delivery is doubtful")
    func composerStates() throws {
        var state = try legacyState()
        let det = state.deterministic.theirAlias
        #expect(state.composerState(policy: .init(stage: .a)) == .ready(sendAlias: legacyOut))
        #expect(state.composerState(policy: .init(stage: .b)) == .needsHandshake(announcing: det))
        #expect(state.composerState(policy: .init(stage: .d)) == .warning(.legacyPeerMayNotReceive, sendAlias: det))
        state.recordHandshakeSent(
            state.handshake(policy: .init(stage: .b), isResponse: false, timestampMs: 1, conversationID: nil))
        #expect(state.composerState(policy: .init(stage: .b)) == .ready(sendAlias: det))
        #expect(
            state.composerState(policy: .init(stage: .d)) == .warning(.legacyPeerMayNotReceive, sendAlias: det),
            "its legacy replies are no longer read in stage D")

        var fresh = try ConversationRoutingState(contact: peerAddress, privateKey: me, now: UnixMillis(0))
        #expect(fresh.composerState(policy: .init(stage: .a)) == .warning(.peerCapabilityUnknown, sendAlias: det))
        fresh.record(.messageOnDeterministicAlias)
        #expect(fresh.composerState(policy: .init(stage: .a)) == .ready(sendAlias: det))
    }

    @Test("stage B+ never creates legacy aliases; stage A may pin a peer to legacy")
    func legacyPinning() throws {
        var fresh = try ConversationRoutingState(contact: peerAddress, privateKey: me, now: UnixMillis(0))
        #expect(!fresh.pinLegacy(policy: .init(stage: .b)) { Alias.random() })
        #expect(fresh.legacyOutgoingAliases.isEmpty)
        let pinned = Alias.random()
        #expect(fresh.pinLegacy(policy: .init(stage: .a)) { pinned })
        #expect(fresh.mode == .legacyOnly && fresh.sendAlias(policy: .init(stage: .a)) == pinned)
        #expect(fresh.composerState(policy: .init(stage: .a)) == .ready(sendAlias: pinned))
    }

    @Test("Phase 5 cleanup purges legacy aliases without recent traffic")
    func retentionCleanup() throws {
        var table = RoutingTable([try legacyState()])
        var active = try ConversationRoutingState(
            contact: KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey),
            privateKey: me, legacyIncoming: [Alias.random()], now: UnixMillis(1_000))
        _ = active.receiveMessage(
            on: try #require(active.legacyIncomingAliases.first), at: UnixMillis(95_000), policy: .init(stage: .a))
        table[active.contactAddress] = active
        let purged = table.purgeStaleLegacyAliases(now: UnixMillis(100_000), retentionMs: 50_000)
        #expect(purged == [peerAddress])
        #expect(table[peerAddress]?.mode == .deterministicOnly && table[peerAddress]?.hasLegacyData == false)
        #expect(table[active.contactAddress]?.hasLegacyData == true)
    }

    @Test("watched set: every deterministic alias, legacy per mode and stage")
    func watchExport() throws {
        let legacy = try legacyState()
        let fresh = try ConversationRoutingState(
            contact: KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey),
            privateKey: me, now: UnixMillis(0))
        let table = RoutingTable([legacy, fresh])
        #expect(
            table.watchedIncomingAliases(policy: .init(stage: .a), now: UnixMillis(0))
                == [legacy.deterministic.myAlias, legacyIn, fresh.deterministic.myAlias])
        #expect(
            table.watchedIncomingAliases(policy: .init(stage: .d), now: UnixMillis(0))
                == [legacy.deterministic.myAlias, fresh.deterministic.myAlias])
        #expect(table.contact(forIncoming: legacyIn, policy: .init(stage: .a), now: UnixMillis(0)) == peerAddress)
        #expect(table.contact(forIncoming: legacyIn, policy: .init(stage: .d), now: UnixMillis(0)) == nil)
    }
}

/// The user's routing choice per conversation (issue 24 item 5).
@Suite struct RoutingPreferenceTests {
    static let key = try? PrivateKey(hex: "1de32ec684f4a3d850f896ba14c68d45f9d345934cdd410d090ab38213f00a7e")
    static let peer = KaspaAddress(
        publicKey: (try? PrivateKey(hex: "6c1f7d4e3bb0f4a8a4c6e77b5d2f0b9e1a3d5c7e9f1b3d5f7a9c1e3b5d7f9a1c"))?
            .xOnlyPublicKey
            ?? PrivateKey.generate().xOnlyPublicKey)

    static func fresh() throws -> ConversationRoutingState {
        try ConversationRoutingState(
            contact: peer, privateKey: try #require(key), legacyIncoming: [try Alias("aaaaaaaaaaaa")],
            now: UnixMillis(0))
    }

    @Test func aLegacyPinHoldsAgainstEvidenceUntilLiftedToAuto() throws {
        var state = try Self.fresh()
        let pinned = try Alias("bbbbbbbbbbbb")
        #expect(state.setPreference(.legacy, policy: RoutingPolicy(stage: .a)) { pinned })
        #expect(state.sendAlias(policy: RoutingPolicy(stage: .a)) == pinned)
        _ = state.receiveMessage(on: state.deterministic.myAlias, at: UnixMillis(5), policy: RoutingPolicy(stage: .a))
        #expect(state.peerSupportsDeterministic)
        #expect(state.mode == .legacyOnly)
        #expect(state.sendAlias(policy: RoutingPolicy(stage: .a)) == pinned)
        #expect(state.setPreference(.auto, policy: RoutingPolicy(stage: .a)) { pinned })
        // The message on our deterministic alias was real evidence: it stays.
        #expect(state.mode == .hybrid)
        #expect(state.sendAlias(policy: RoutingPolicy(stage: .a)) == state.deterministic.theirAlias)
    }

    @Test func theToggleSwitchesOutgoingAndAutoForgetsWhatOnlyTheToggleSaid() throws {
        var state = try Self.fresh()
        state.legacyOutgoingAliases = [try Alias("cccccccccccc")]
        #expect(state.setPreference(.deterministic, policy: RoutingPolicy(stage: .a)) { Alias.random() })
        #expect(state.sendAlias(policy: RoutingPolicy(stage: .a)) == state.deterministic.theirAlias)
        #expect(state.setPreference(.auto, policy: RoutingPolicy(stage: .a)) { Alias.random() })
        #expect(!state.peerSupportsDeterministic)
        #expect(state.sendAlias(policy: RoutingPolicy(stage: .a)) == (try Alias("cccccccccccc")))
    }

    @Test func pinningToLegacyIsRefusedAfterStageA() throws {
        var state = try Self.fresh()
        let before = state
        #expect(!state.setPreference(.legacy, policy: RoutingPolicy(stage: .b)) { Alias.random() })
        #expect(state == before)
    }
}
