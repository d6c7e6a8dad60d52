import Foundation
import Hummingbird
import HummingbirdTesting
import KasiaProtocol
import KaspaCrypto
import Logging
import TandemAPI
import TandemBasics
import Testing

@testable import TandemServer

/// `GET /kasia/stream` over real loopback sockets (issue 11 item 3).
@Suite struct RelayStreamTests {
    static let alice = RelayFixtures.address(RelayFixtures.alice).description
    static let bob = RelayFixtures.address(RelayFixtures.bob).description

    /// Runs `body` against a live server whose hub the test can inspect.
    static func live(
        capacity: Int = 256, heartbeat: Duration = .seconds(15), deadline: Double = 60,
        _ body: @escaping @Sendable (APIClient, Int, RelayHub, TestServer) async throws -> Void
    ) async throws {
        let server = try TestServer()
        let logger = Logger.quiet("stream")
        let hub = RelayHub(store: server.store, capacity: capacity, logger: logger)
        var configuration = server.configuration
        configuration.relay.heartbeatInterval = heartbeat
        let router = buildRouter(
            configuration: configuration, store: server.store, secret: TestServer.secret, hub: hub,
            syncWrites: SyncWriteGate(for: server.store, limits: configuration.syncWrites)
        ).router
        let relay = RelayService(hub: hub, store: server.store, pollInterval: .seconds(2), logger: logger)
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            services: server.store.services + [relay],
            logger: logger)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await withDeadline(seconds: deadline) { try await body(APIClient(client: client), port, hub, server) }
        }
    }

    static func url(_ port: Int, _ query: String) -> String { "http://127.0.0.1:\(port)/kasia/stream?\(query)" }

    @Test func newRowsForAWatchedAliasOrAddressArriveLiveWithTheirIndexerJSON() async throws {
        try await Self.live { api, port, _, _ in
            var stream = try await SSEStream.open(
                Self.url(port, "alias=\(RelayFixtures.alias.indexerQueryParameter)&address=\(Self.bob)"))
            #expect(stream.status == 200)
            #expect(try await stream.next()?.comment == "connected")
            // Given a message under the watched alias, an unrelated stash, and a handshake to bob
            let message = try await api.submit(RelayFixtures.signed(RelayFixtures.message(), by: RelayFixtures.carol))
            _ = try await api.submit(RelayFixtures.signed(RelayFixtures.selfStash(), by: RelayFixtures.carol))
            let handshake = try await api.submit(RelayFixtures.signed(RelayFixtures.handshake(), to: RelayFixtures.bob))
            // Then the stream carries the two watched rows, in order, as indexer rows
            let first = try #require(try await stream.nextEvent())
            #expect(first.event == "contextual_message")
            #expect(first.id == String(try #require(message.json?["block_time"] as? Int)))
            let row = try JSONDecoder().decode(IndexerContextualMessage.self, from: Data(try #require(first.data).utf8))
            #expect(row.txID == message.json?["tx_id"] as? String)
            #expect(row.alias == RelayFixtures.alias.indexerQueryParameter)
            let second = try #require(try await stream.nextEvent())
            #expect(second.event == "handshake")
            let shake = try JSONDecoder().decode(IndexerHandshake.self, from: Data(try #require(second.data).utf8))
            #expect(shake.txID == handshake.json?["tx_id"] as? String)
            #expect(shake.receiver == Self.bob)
        }
    }

    @Test func lastEventIDResumesWithoutLossOrDuplicates() async throws {
        try await Self.live { api, port, _, _ in
            var sent: [String] = []
            for nonce in 1...6 {
                let answer = try await api.submit(RelayFixtures.signed(RelayFixtures.message(), nonce: UInt64(nonce)))
                sent.append(try #require(answer.json?["tx_id"] as? String))
            }
            // Given a client that saw the first two rows (by Last-Event-ID 0 it replays all)
            var first = try await SSEStream.open(Self.url(port, "address=\(Self.alice)"), lastEventID: "0")
            var seen: [String] = []
            var lastID = ""
            for _ in 0..<2 {
                let event = try #require(try await first.nextEvent())
                seen.append(
                    try JSONDecoder().decode(IndexerContextualMessage.self, from: Data((event.data ?? "").utf8)).txID)
                lastID = try #require(event.id)
            }
            // When it reconnects from the second id while more rows arrive
            var resumed = try await SSEStream.open(Self.url(port, "address=\(Self.alice)"), lastEventID: lastID)
            for nonce in 7...9 {
                let answer = try await api.submit(RelayFixtures.signed(RelayFixtures.message(), nonce: UInt64(nonce)))
                sent.append(try #require(answer.json?["tx_id"] as? String))
            }
            // Then it gets each remaining row exactly once, in order
            while seen.count < sent.count {
                let event = try #require(try await resumed.nextEvent())
                seen.append(
                    try JSONDecoder().decode(IndexerContextualMessage.self, from: Data((event.data ?? "").utf8)).txID)
            }
            #expect(seen == sent)
        }
    }

    @Test func broadcastsAreRelayedToWatchersOfTheirSender() async throws {
        try await Self.live { api, port, _, _ in
            var stream = try await SSEStream.open(Self.url(port, "address=\(Self.alice)"))
            #expect(try await stream.next()?.comment == "connected")
            let payload = KasiaPayload.broadcast(channel: "news", text: "hello all").encoded(root: .ciphMsg)
            let answer = try await api.submit(RelayFixtures.signed(payload))
            #expect(answer.status == .ok)
            let event = try #require(try await stream.nextEvent())
            #expect(event.event == RelayEventKind.broadcast.rawValue)
            let row = try JSONDecoder().decode(IndexerBroadcast.self, from: Data((event.data ?? "").utf8))
            #expect(row.channel == Hex.encode(Array("news".utf8)))
            #expect(row.message == Hex.encode(Array("hello all".utf8)))
            #expect(row.sender == Self.alice)
        }
    }

    @Test func idleStreamsGetHeartbeatComments() async throws {
        try await Self.live(heartbeat: .milliseconds(50)) { _, port, _, _ in
            var stream = try await SSEStream.open(Self.url(port, "address=\(Self.alice)"))
            #expect(try await stream.next()?.comment == "connected")
            #expect(try await stream.next()?.comment == "heartbeat")
        }
    }

    /// Its guard is longer than the others': it sends signed submissions (each verified by the
    /// server) until the stream's buffers fill, 2 s alone, and a full run of every suite on two
    /// cores once starved it past a minute. Its own bound on submissions is what fails it.
    @Test func aSlowConsumerIsDisconnectedWithBoundedMemoryAndResumesFromTheStore() async throws {
        try await Self.live(capacity: 8, deadline: 300) { api, port, hub, _ in
            // Given a client that opens a stream and stops reading
            var slow = try await SSEStream.open(Self.url(port, "address=\(Self.alice)"))
            #expect(try await slow.next()?.comment == "connected")
            #expect(await hub.subscriberCount == 1)
            // When large rows keep coming until the server gives up on it
            var sent: [String] = []
            var nonce: UInt64 = 0
            while await hub.subscriberCount > 0 {
                nonce += 1
                try #require(nonce < 5_000, "the slow stream was never disconnected")
                let payload = KasiaPayload.selfStash(
                    scope: nil, sealed: RelayFixtures.sealed(UInt8(nonce % 251), count: 9_000)
                ).encoded(root: .ciphMsg)
                let answer = try await api.submit(RelayFixtures.signed(payload, nonce: nonce))
                sent.append(try #require(answer.json?["tx_id"] as? String))
            }
            // Then the stream ends after what was already on the wire, and a resume from the
            // last id it read delivers the rest exactly once
            var seen: [String] = []
            var lastID = "0"
            do {
                while let event = try await slow.nextEvent() {
                    seen.append(
                        try JSONDecoder().decode(IndexerSelfStash.self, from: Data((event.data ?? "").utf8)).txID)
                    lastID = event.id ?? lastID
                }
            } catch {
                // A reset connection ends the stream too.
            }
            #expect(seen.count < sent.count)
            var resumed = try await SSEStream.open(Self.url(port, "address=\(Self.alice)"), lastEventID: lastID)
            while seen.count < sent.count {
                let event = try #require(try await resumed.nextEvent())
                seen.append(try JSONDecoder().decode(IndexerSelfStash.self, from: Data((event.data ?? "").utf8)).txID)
            }
            #expect(seen == sent)
        }
    }
}
