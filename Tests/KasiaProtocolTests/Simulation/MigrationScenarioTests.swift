import KasiaProtocol
import KaspaCrypto
import TandemBasics
import Testing

/// Seed 000 §8 integration cases and end-to-end matrix, run against peer simulators with real
/// keys, real sealing and real payload bytes.
@Suite("Deterministic-alias migration against simulated peers")
struct MigrationScenarioTests {
    /// A legacy chat as an old KaChat left it: the peer's alias watched, ours announced.
    func establishLegacyChat(_ me: ModernClient, _ peer: LegacyIOSPeer, _ chain: SimulatedChain) throws {
        try peer.sendHandshake(to: me.address, on: chain, isResponse: false)
        try me.poll(chain)
        var state = try #require(me.table[peer.address])
        #expect(state.pinLegacy(policy: .init(stage: .a)) { Alias.random() })
        me.table[peer.address] = state
        try me.sendHandshake(to: peer.address, on: chain, isResponse: true)
        try peer.poll(chain)
        // The one-time migration turns such a conversation into hybrid (seed §4.1).
        me.table[peer.address]?.mode = .hybrid
    }

    /// Sends `count` messages each way and checks each arrived exactly once.
    @discardableResult
    func exchange(
        _ me: ModernClient, _ peer: any SimulatedPeer, _ chain: SimulatedChain, tag: String, count: Int = 3,
        expectOutgoing: Bool = true, expectIncoming: Bool = true
    ) throws -> Bool {
        let sentBefore = me.received(from: peer.address).count
        let peerBefore = peer.received(from: me.address).count
        var outgoing: [String] = []
        for i in 0..<count {
            let text = "\(tag) me→peer \(i)"
            if try me.send(text, to: peer.address, on: chain) { outgoing.append(text) }
            let reply = "\(tag) peer→me \(i)"
            _ = try peer.send(reply, to: me.address, on: chain)
        }
        for _ in 0..<2 {
            try me.poll(chain)
            try peer.poll(chain)
        }  // a second poll must not duplicate
        let arrivedAtPeer = Array(peer.received(from: me.address).dropFirst(peerBefore))
        let arrivedAtMe = Array(me.received(from: peer.address).dropFirst(sentBefore))
        if expectOutgoing {
            #expect(arrivedAtPeer == outgoing && outgoing.count == count, "\(tag): peer got \(arrivedAtPeer)")
        }
        if expectIncoming {
            #expect(arrivedAtMe == (0..<count).map { "\(tag) peer→me \($0)" }, "\(tag): I got \(arrivedAtMe)")
        }
        return true
    }

    @Test("integration 1: a migrated legacy chat is hybrid and still receives old-alias messages")
    func legacyChatKeepsWorking() throws {
        let chain = SimulatedChain()
        let me = ModernClient()
        let peer = LegacyIOSPeer()
        try establishLegacyChat(me, peer, chain)
        #expect(me.table[peer.address]?.mode == .hybrid)
        try exchange(me, peer, chain, tag: "legacy")
        #expect(me.table[peer.address]?.peerSupportsDeterministic == false)
    }

    @Test("integration 2 / e2e 1: a new conversation with the web branch needs no alias anywhere")
    func deterministicWithWeb() throws {
        let chain = SimulatedChain()
        let me = ModernClient()
        let web = WebDeterministicPeer()
        try web.sendHandshake(to: me.address, on: chain, isResponse: false)
        try me.poll(chain)
        #expect(me.table[web.address]?.peerSupportsDeterministic == true, "an alias-less handshake is evidence")
        try me.sendHandshake(to: web.address, on: chain, isResponse: true)
        try web.poll(chain)
        #expect(web.rejectedHandshakes == 0, "our handshakes stay at version 1")
        try exchange(me, web, chain, tag: "web")
    }

    @Test("e2e 1 (discrete): no handshake at all; the first deterministic message is evidence")
    func discreteConversation() throws {
        let chain = SimulatedChain()
        let me = ModernClient()
        let web = WebDeterministicPeer()
        #expect(try web.send("hello", to: me.address, on: chain))
        _ = try me.state(for: web.address)
        try me.poll(chain)
        #expect(me.received(from: web.address) == ["hello"])
        try exchange(me, web, chain, tag: "discrete")
    }

    @Test("integration 3: in stage D a self-stash restore rebuilds routing from the partner address")
    func selfStashRestoreInStageD() throws {
        let chain = SimulatedChain()
        let me = ModernClient(policy: .init(stage: .d))
        let web = WebDeterministicPeer()
        let stash = SavedHandshake(partnerAddress: web.address, isResponse: false, timestampMilliseconds: 1)
        let text = try stash.jsonText(policy: me.policy.selfStashWritePolicy)
        #expect(!text.contains("alias"))
        let sealed = try KasiaCipher.seal(text, to: me.address)

        // A second device with the same key restores from the stash alone.
        let device2 = ModernClient(key: me.key, policy: .init(stage: .d))
        let restored = try SavedHandshake(decoding: KasiaCipher.open(sealed, using: device2.key))
        device2.table[web.address] = ConversationRoutingState(
            contact: restored.partnerAddress, deterministic: try restored.derivedAliases(privateKey: device2.key),
            now: UnixMillis(0))
        #expect(device2.table[web.address]?.deterministic == (try AliasPair(privateKey: me.key, peer: web.address)))
        _ = try web.send("after restore", to: device2.address, on: chain)
        try device2.poll(chain)
        #expect(device2.received(from: web.address) == ["after restore"])
        try exchange(device2, web, chain, tag: "restored")
    }

    @Test("integration 4: push registration includes every deterministic incoming alias")
    func pushRegistration() throws {
        let chain = SimulatedChain()
        let me = ModernClient()
        let legacy = LegacyIOSPeer()
        try establishLegacyChat(me, legacy, chain)
        let fresh = try me.state(for: WebDeterministicPeer().address)
        let watched = me.table.watchedIncomingAliases(policy: me.policy, now: UnixMillis(Int64(me.nowMs)))
        let legacyState = try #require(me.table[legacy.address])
        #expect(watched.isSuperset(of: [legacyState.deterministic.myAlias, fresh.deterministic.myAlias]))
        #expect(watched.isSuperset(of: legacyState.legacyIncomingAliases))
    }

    @Test("integration 5: the hybrid compatibility handshake is accepted by old iOS and old web")
    func compatibilityHandshakeAccepted() throws {
        let chain = SimulatedChain()
        let me = ModernClient()
        let peer = LegacyIOSPeer()
        try me.sendHandshake(to: peer.address, on: chain, isResponse: false)
        try peer.poll(chain)
        let state = try #require(me.table[peer.address])
        #expect(peer.knownAliases[me.address] == [state.sendAlias(policy: me.policy)])
        let text = try state.handshake(policy: me.policy, isResponse: false, timestampMs: 1, conversationID: nil)
            .jsonText
        #expect(oldWebAccepts(text))
    }

    @Test("integration 6: an old iOS peer keeps receiving once the flip waits for the alias to be known")
    func flipAfterAnnouncement() throws {
        let chain = SimulatedChain()
        let me = ModernClient()
        let peer = LegacyIOSPeer()
        try establishLegacyChat(me, peer, chain)
        // Flipping blindly would lose messages: the peer drops unknown aliases.
        let det = try #require(me.table[peer.address]).deterministic.theirAlias
        me.policy = .init(stage: .b)
        #expect(me.table[peer.address]?.composerState(policy: me.policy) == .needsHandshake(announcing: det))
        #expect(try me.send("blind", to: peer.address, on: chain, force: false))  // announces first
        try peer.poll(chain)
        #expect(peer.knownAliases[me.address]?.contains(det) == true)
        #expect(peer.received(from: me.address).last == "blind")
        try exchange(me, peer, chain, tag: "after-flip")
    }

    @Test("e2e 2: new iOS and old iOS fall back to hybrid routing")
    func newAndOldIOS() throws {
        let chain = SimulatedChain()
        let me = ModernClient()
        let peer = LegacyIOSPeer()
        try peer.sendHandshake(to: me.address, on: chain, isResponse: false)
        try me.poll(chain)
        try me.sendHandshake(to: peer.address, on: chain, isResponse: true)
        try peer.poll(chain)
        #expect(me.table[peer.address]?.mode == .hybrid)
        try exchange(me, peer, chain, tag: "mixed")
    }

    @Test("e2e 3: deterministic-only against an old peer warns, and its legacy replies are not read")
    func deterministicOnlyAgainstOldPeer() throws {
        let chain = SimulatedChain()
        let me = ModernClient()
        let peer = LegacyIOSPeer()
        try establishLegacyChat(me, peer, chain)
        me.policy = .init(stage: .d)
        #expect(try !me.send("refused", to: peer.address, on: chain))
        guard case .warning(.legacyPeerMayNotReceive, _)? = me.composerLog.last else {
            Issue.record("expected a legacy-peer warning, got \(String(describing: me.composerLog.last))")
            return
        }
        _ = try peer.send("lost", to: me.address, on: chain)
        try me.poll(chain)
        #expect(!me.received(from: peer.address).contains("lost"))
    }
}
