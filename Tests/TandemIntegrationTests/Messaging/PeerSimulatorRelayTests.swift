import ChatHistory
import ChatTimeline
import Foundation
import KasiaProtocol
import KaspaCrypto
import RoutingStore
import TandemMessaging
import TandemProfile
import TandemWallet
import TestSupport
import Testing

/// Seed 000 §8's end-to-end matrix through the real relay (issue 11 "Tests"): a Tandem client
/// (``Messenger``) and a simulated other app (a legacy-iOS KaChat, the Kasia web
/// deterministic branch) on one `tandem serve` over loopback. The simulators speak only HTTP
/// and `KasiaProtocol`'s codecs; each conversation starts from either side, messages go both
/// ways with exact texts, and Tandem's routing ends where the seed says.
@Suite(.serialized) struct PeerSimulatorRelayTests {
    enum Opener: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case tandem, peer
        var testDescription: String { "\(rawValue) opens" }
    }

    /// Three messages each way, interleaved, then both sides poll twice (a second poll must
    /// add nothing). Returns (what the peer got from Tandem, what Tandem got from the peer).
    static func exchange(
        _ tandem: Messenger, peer: KaspaAddress, tag: String, send: (String) async throws -> Void,
        poll: () async throws -> Void, inbox: () async -> [String]
    ) async throws -> (atPeer: [String], atTandem: [String]) {
        for index in 0..<3 {
            try await tandem.send("\(tag) tandem→peer \(index) ✓", to: peer)
            try await send("\(tag) peer→tandem \(index) ✓")
        }
        for _ in 0..<2 {
            try await tandem.sync()
            try await poll()
        }
        let rows = MessagingRelayTests.texts(try await MessagingRelayTests.allMessages(tandem, with: peer))
        return (await inbox(), rows.filter { $0.direction == .incoming }.compactMap(MessagingRelayTests.text))
    }

    /// A conversation with a deterministic peer: `opener` sends the handshake and the other side
    /// answers with its own, then ``exchange(_:peer:tag:send:poll:inbox:)``.
    static func converse(_ tandem: Messenger, with peer: DeterministicRelayPeer, opener: Opener, tag: String)
        async throws -> (atPeer: [String], atTandem: [String])
    {
        switch opener {
        case .tandem:
            try await tandem.startConversation(with: peer.address)
            try await peer.poll()
            try await peer.sendHandshake(to: tandem.address, isResponse: true)
            try await tandem.sync()
        case .peer:
            try await peer.sendHandshake(to: tandem.address, isResponse: false)
            try await tandem.sync()
            try await tandem.startConversation(with: peer.address)
            try await peer.poll()
        }
        return try await exchange(
            tandem, peer: peer.address, tag: tag, send: { try await peer.send($0, to: tandem.address) },
            poll: { try await peer.poll() }, inbox: { await peer.inbox[tandem.address] ?? [] })
    }

    static func expected(_ tag: String, _ direction: String) -> [String] {
        (0..<3).map { "\(tag) \(direction) \($0) ✓" }
    }

    @Test(arguments: Opener.allCases)
    func aLegacyIOSPeerTalksToTandemOnItsOwnAliasesAndStaysHybrid(opener: Opener) async throws {
        // Given a relay, a Tandem profile and an old KaChat
        let server = try await MessagingRelayTests.startServer()
        defer { server.stop() }
        let (tandem, directory) = try MessagingRelayTests.messenger(server.url)
        defer { directory.remove() }
        let legacy = LegacyIOSRelayPeer(relay: RawRelay(base: server.url))

        // When one side opens with a handshake and the other answers
        switch opener {
        case .tandem:
            try await tandem.startConversation(with: legacy.address)
            try await legacy.poll()
            try await tandem.sync()
        case .peer:
            try await legacy.sendHandshake(to: tandem.address, isResponse: false)
            try await tandem.sync()
            try await tandem.startConversation(with: legacy.address)
            try await legacy.poll()
        }

        // Then texts cross both ways, exactly
        let (atPeer, atTandem) = try await Self.exchange(
            tandem, peer: legacy.address, tag: "legacy",
            send: { try await legacy.send($0, to: tandem.address) }, poll: { try await legacy.poll() },
            inbox: { await legacy.inbox[tandem.address] ?? [] })
        #expect(atPeer == Self.expected("legacy", "tandem→peer"))
        #expect(atTandem == Self.expected("legacy", "peer→tandem"))

        // And the old app accepted Tandem's handshake: it names an alias (seed §4.4) at version 1
        let received = await legacy.handshakes[tandem.address] ?? []
        #expect(await legacy.rejectedHandshakes == 0)
        #expect(!received.isEmpty)
        #expect(received.allSatisfy { $0.alias != nil && $0.version == 1 })
        // And Tandem watches the peer's random alias and never took it for deterministic (§4.2–4.3)
        let state = try #require(try tandem.profile.openRouting().fetchOne(legacy.address))
        let legacyAlias = try #require(await legacy.ownAlias[tandem.address])
        #expect(state.legacyIncomingAliases == [legacyAlias])
        #expect(state.mode == .hybrid)
        #expect(!state.peerSupportsDeterministic)
        // And Tandem sends on the alias its handshake announced, the one the old app reads
        #expect(await legacy.knownAliases[tandem.address]?.count == 1)
    }

    @Test(arguments: Opener.allCases)
    func aWebDeterministicPeerTalksToTandemOnDerivedAliasesOnly(opener: Opener) async throws {
        // Given a relay, a Tandem profile and the Kasia web deterministic branch
        let server = try await MessagingRelayTests.startServer()
        defer { server.stop() }
        let (tandem, directory) = try MessagingRelayTests.messenger(server.url)
        defer { directory.remove() }
        let web = DeterministicRelayPeer(relay: RawRelay(base: server.url))

        // When one side opens with a handshake and the other answers, and texts cross both ways
        let (atPeer, atTandem) = try await Self.converse(tandem, with: web, opener: opener, tag: "web")
        #expect(atPeer == Self.expected("web", "tandem→peer"))
        #expect(atTandem == Self.expected("web", "peer→tandem"))

        // And Tandem's handshakes stayed at version 1 (the web rejects more, seed §7 item 4)
        #expect(await web.rejectedHandshakes == 0)
        // And everything Tandem wrote was under ciph_msg:, the only root the web reads (§16)
        #expect(await web.unreadable == 0)
        #expect(Set(await web.roots) == ["ciph_msg"])
        // And Tandem took the alias-less handshake as evidence: deterministic only, the pair
        // the web derives on its side (seed §1.1, §4.3)
        let state = try #require(try tandem.profile.openRouting().fetchOne(web.address))
        #expect(state.peerSupportsDeterministic)
        #expect(state.mode == .deterministicOnly)
        #expect(state.legacyIncomingAliases.isEmpty)
        let webPair = try await web.pair(tandem.address)
        #expect(state.deterministic.myAlias == webPair.theirAlias)
        #expect(state.deterministic.theirAlias == webPair.myAlias)
    }

    @Test(arguments: Opener.allCases)
    func aKaChatOfTodayPeerGetsKchatRepliesOnceItHasWrittenKchat(opener: Opener) async throws {
        // Given a relay, a Tandem profile and a KaChat of today (it writes kchat:, reads both)
        let server = try await MessagingRelayTests.startServer()
        defer { server.stop() }
        let (tandem, directory) = try MessagingRelayTests.messenger(server.url)
        defer { directory.remove() }
        let kachat = DeterministicRelayPeer(
            relay: RawRelay(base: server.url), flavor: .kachatToday)

        // When one side opens with a handshake and the other answers, and texts cross both ways
        let (atPeer, atTandem) = try await Self.converse(tandem, with: kachat, opener: opener, tag: "kchat")
        #expect(atPeer == Self.expected("kchat", "tandem→peer"))
        #expect(atTandem == Self.expected("kchat", "peer→tandem"))

        // And Tandem writes kchat: from the peer's first kchat: row on: before it, with no
        // evidence, only its opening handshake went out under ciph_msg: (then three messages; when
        // the peer opens, the answering handshake and three messages)
        let expected =
            opener == .tandem ? ["ciph_msg", "kchat", "kchat", "kchat"] : ["kchat", "kchat", "kchat", "kchat"]
        #expect(await kachat.roots == expected)
        let state = try #require(try tandem.profile.openRouting().fetchOne(kachat.address))
        #expect(state.rootDecision == (.kchat, .evidence))
        #expect(state.peerSupportsDeterministic)
    }
}
