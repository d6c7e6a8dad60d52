import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import Logging
import NIOCore
import TandemAPI
import TandemBasics
import TandemNIOTransport
import TandemServer
import TandemServerStore
import TestSupport
import Testing

/// The chain index's tests: a server following a simulated node over real WebSockets, and the
/// simulated node's own kasia-indexer routes as the truth its rows must equal (issue 25 "Tests").
enum ChainIndexHarness {
    /// The server's configuration with the node's `urls` to follow.
    static func configuration(_ base: ServerConfiguration, nodes urls: [String], startHash: String? = nil)
        -> ServerConfiguration
    {
        var configuration = base
        configuration.kaspa = KaspaIndexConfiguration(
            nodes: urls.compactMap(URL.init(string:)), network: .testnet10, startHash: startHash,
            transport: WebSocketClientTransport(),
            // As `tandem serve` wires it: the ingest's connection on the background event loop.
            ingestTransport: WebSocketClientTransport(eventLoopGroup: BackgroundEventLoop.group),
            callTimeout: .seconds(20), idlePoll: .milliseconds(50))
        return configuration
    }

    /// Waits until the store's cursor is the node's sink (a bounded poll of a condition; the
    /// deadline only turns a hang into a failure).
    /// How long a wait for the ingest may take. The ingest runs at nice 10 on one thread the
    /// process's ingesters share (``KasiaChainIngester/executor``), so while the whole suite keeps
    /// both cores busy it gets a tenth of a core: 30 s was too short once the suite grew (issue 43),
    /// and 120 s in a clean-clone CI run of session 31 (the chain tests take 165–234 s of wall time
    /// in a full run, 2 s alone). A hang guard, never the assertion (issue 45 item 3).
    /// These tests say what the index holds, not how fast (that is `tandem-bench chain-index`).
    static let patience: Duration = .seconds(600)

    /// Until the index's cursor is the node's sink, read again at every look, so a block the node
    /// adds while the test waits moves the goal with it rather than being walked past.
    static func waitUntilIndexed(_ store: any ServerStore, node: SimulatedKaspaNode, within: Duration = patience)
        async throws
    {
        let first = await node.read { Hex.encode($0.tip.hash) }
        try await waitUntil("the index reaches the node's sink (\(first) when the wait began)", within: within) {
            let sink = await node.read { Hex.encode($0.tip.hash) }
            return try await store.kasiaChainCursor()?.block == sink
        }
    }

    static func waitUntil(
        _ what: String, within: Duration = patience, _ condition: () async throws -> Bool
    ) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + within
        while clock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("timed out waiting until \(what)")
        throw CancellationError()
    }

    /// Reads every route from the server and from the simulated indexer and expects them equal,
    /// row for row and member for member; answers how many rows were compared.
    @discardableResult
    static func expectRoutesEqual(server: TestClient, indexer: TestClient, traffic: SimulatedKasiaTraffic)
        async throws -> Int
    {
        let queries = KasiaRouteComparison.queries(
            addresses: traffic.addresses.map(\.description),
            aliasHexes: traffic.addresses.indices.map { index in
                SimulatedKasiaTraffic.aliases(sender: index).map { Hex.encode(Array($0.utf8)) }
            },
            scopeHex: Hex.encode(Array("saved_handshake".utf8)))
        let (differences, rows) = try await KasiaRouteComparison.differences(
            ours: fetch(server), ourPrefix: "/kasia", truth: fetch(indexer), queries: queries,
            ourMembers: KasiaRouteComparison.tandemMembers)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        return rows
    }

    static func fetch(_ client: TestClient) -> KasiaRouteComparison.Fetch {
        { path in
            let answer = try await client.get(path)
            return (
                Int(answer.head.status.code), Data(answer.body?.readableBytesView ?? ByteBuffer().readableBytesView)
            )
        }
    }

    /// An HTTP client of the simulated node's indexer routes.
    static func indexerClient(_ server: RunningNodeServer) -> TestClient {
        let client = TestClient(host: "127.0.0.1", port: server.port, configuration: .init(timeout: .seconds(60)))
        client.connect()
        return client
    }
}

/// The traffic behind an actor, so a server's `@Sendable` test body can add to it.
actor TrafficDriver {
    private(set) var traffic: SimulatedKasiaTraffic
    let node: SimulatedKaspaNode

    init(node: SimulatedKaspaNode, senders: Int) async throws {
        self.node = node
        traffic = try await SimulatedKasiaTraffic.funded(on: node, senders: senders)
    }

    func send(rounds: Int, roundsPerBlock: Int = 1) async throws {
        var next = traffic
        try await next.send(rounds: rounds, roundsPerBlock: roundsPerBlock, on: node)
        traffic = next
    }
}
