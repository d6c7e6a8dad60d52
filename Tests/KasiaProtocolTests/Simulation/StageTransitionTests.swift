import KasiaProtocol
import KaspaCrypto
import TandemBasics
import Testing

/// Every simulated conversation through the rollout stages A → B → C → D (seed 000 §5, §9):
/// each message the composer lets out arrives exactly once, and where stage D cannot reach an
/// old client the composer says so before anything is sent.
@Suite("Rollout stages A–D")
struct StageTransitionTests {
    let scenarios = MigrationScenarioTests()

    @Test("web deterministic peer: every stage delivers both ways")
    func webPeerThroughAllStages() throws {
        let chain = SimulatedChain()
        let me = ModernClient()
        let web = WebDeterministicPeer()
        try web.sendHandshake(to: me.address, on: chain, isResponse: false)
        try me.poll(chain)
        for stage in RoutingPolicy.Stage.allCases {
            me.policy = RoutingPolicy(stage: stage)
            me.nowMs += 3_600_000
            try scenarios.exchange(me, web, chain, tag: "web-\(stage)")
        }
        #expect(!me.composerLog.contains { if case .warning = $0 { true } else { false } })
    }

    @Test("old iOS peer: A, B and C deliver both ways; D warns and stops reading its legacy alias")
    func legacyPeerThroughAllStages() throws {
        let chain = SimulatedChain()
        let me = ModernClient()
        let peer = LegacyIOSPeer()
        try scenarios.establishLegacyChat(me, peer, chain)
        for stage in [RoutingPolicy.Stage.a, .b, .c] {
            me.policy = RoutingPolicy(stage: stage, retentionMilliseconds: 7 * 24 * 3_600_000)
            me.nowMs += 3_600_000
            try scenarios.exchange(me, peer, chain, tag: "legacy-\(stage)")
        }
        // By stage B our deterministic alias was announced, so the peer watches it.
        let state = try #require(me.table[peer.address])
        #expect(peer.knownAliases[me.address]?.contains(state.deterministic.theirAlias) == true)
        me.policy = RoutingPolicy(stage: .d)
        #expect(
            state.composerState(policy: me.policy)
                == .warning(.legacyPeerMayNotReceive, sendAlias: state.deterministic.theirAlias))
        try scenarios.exchange(me, peer, chain, tag: "legacy-d", expectOutgoing: false, expectIncoming: false)
        #expect(me.received(from: peer.address).filter { $0.hasPrefix("legacy-d") }.isEmpty)
    }

    @Test("stage C drops a quiet legacy peer's aliases after the retention window, keeps an active one")
    func stageCRetention() throws {
        let chain = SimulatedChain()
        let me = ModernClient()
        let quiet = LegacyIOSPeer()
        let active = LegacyIOSPeer()
        try scenarios.establishLegacyChat(me, quiet, chain)
        try scenarios.establishLegacyChat(me, active, chain)
        let week: UInt64 = 7 * 24 * 3_600_000
        me.policy = RoutingPolicy(stage: .c, retentionMilliseconds: week)
        me.nowMs += week / 2
        try scenarios.exchange(me, active, chain, tag: "active")
        me.nowMs += week
        let purged = me.table.purgeStaleLegacyAliases(now: UnixMillis(Int64(me.nowMs)), retentionMs: week)
        #expect(purged == [quiet.address])
        #expect(me.table[active.address]?.hasLegacyData == true)
        try scenarios.exchange(me, active, chain, tag: "still-active")
    }

    @Test("a deterministic-capable KaChat in hybrid flips on the explicit hint and keeps delivering")
    func twoModernClientsUpgrade() throws {
        let chain = SimulatedChain()
        let alice = ModernClient()
        let bob = ModernClient()
        try alice.sendHandshake(to: bob.address, on: chain, isResponse: false)
        try bob.poll(chain)
        try bob.sendHandshake(to: alice.address, on: chain, isResponse: true)
        try alice.poll(chain)
        #expect(alice.table[bob.address]?.peerSupportsDeterministic == true)
        #expect(bob.table[alice.address]?.peerSupportsDeterministic == true)
        for stage in RoutingPolicy.Stage.allCases {
            alice.policy = RoutingPolicy(stage: stage)
            bob.policy = RoutingPolicy(stage: stage)
            try scenarios.exchange(alice, bob, chain, tag: "modern-\(stage)")
        }
    }
}
