import ChatHistory
import ChatTimeline
import Foundation
import KasiaProtocol
import KaspaCrypto
import RoutingStore
import TandemClient
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

    static func expected(_ tag: String, _ direction: String) -> [String] {
        (0..<3).map { "\(tag) \(direction) \($0) ✓" }
    }

    @Test(arguments: Opener.allCases)
    func aLegacyIOSPeerTalksToTandemOnItsOwnAliasesAndStaysHybrid(opener: Opener) async throws {
        // Given a relay, a Tandem profile and an old KaChat
        let server = try await MessagingRelayTests.startServer()
        defer { server.stop() }
        let (tandem, directory) = try MessagingRelayTests.messenger(server)
        defer { directory.remove() }
        let legacy = LegacyIOSRelayPeer(relay: RawRelay(base: try #require(URL(string: server.baseURL))))

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
        let (tandem, directory) = try MessagingRelayTests.messenger(server)
        defer { directory.remove() }
        let web = WebDeterministicRelayPeer(relay: RawRelay(base: try #require(URL(string: server.baseURL))))

        // When one side opens with a handshake and the other answers
        switch opener {
        case .tandem:
            try await tandem.startConversation(with: web.address)
            try await web.poll()
            try await web.sendHandshake(to: tandem.address, isResponse: true)
            try await tandem.sync()
        case .peer:
            try await web.sendHandshake(to: tandem.address, isResponse: false)
            try await tandem.sync()
            try await tandem.startConversation(with: web.address)
            try await web.poll()
        }

        // Then texts cross both ways, exactly
        let (atPeer, atTandem) = try await Self.exchange(
            tandem, peer: web.address, tag: "web",
            send: { try await web.send($0, to: tandem.address) }, poll: { try await web.poll() },
            inbox: { await web.inbox[tandem.address] ?? [] })
        #expect(atPeer == Self.expected("web", "tandem→peer"))
        #expect(atTandem == Self.expected("web", "peer→tandem"))

        // And Tandem's handshakes stayed at version 1 (the web rejects more, seed §7 item 4)
        #expect(await web.rejectedHandshakes == 0)
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
}
