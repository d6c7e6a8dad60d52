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
            transport: WebSocketClientTransport(), callTimeout: .seconds(5), idlePoll: .milliseconds(50))
        return configuration
    }

    /// Waits until the store's cursor is the node's sink (a bounded poll of a condition; the
    /// deadline only turns a hang into a failure).
    static func waitUntilIndexed(_ store: any ServerStore, node: SimulatedKaspaNode, within: Duration = .seconds(30))
        async throws
    {
        let sink = await node.read { Hex.encode($0.tip.hash) }
        try await waitUntil("the index reaches the node's sink \(sink)", within: within) {
            try await store.kasiaChainCursor()?.block == sink
        }
    }

    static func waitUntil(
        _ what: String, within: Duration = .seconds(30), _ condition: () async throws -> Bool
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

    /// Every row of one route, page after page as KaChat pages (limit 50, next cursor = the last
    /// block time, dedup by tx id), keyed by tx id.
    static func allRows(_ client: TestClient, _ path: String, _ query: String) async throws -> [String: NSDictionary] {
        var rows: [String: NSDictionary] = [:]
        var cursor: Int64 = 0
        for _ in 0..<1_000 {
            let answer = try await client.get("\(path)?\(query)&limit=50&block_time=\(cursor)")
            #expect(answer.head.status == .ok, "\(path)?\(query)")
            let body = try #require(answer.body)
            let page = try #require(
                try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [NSDictionary])
            var newest = cursor
            for row in page {
                let id = try #require(row["tx_id"] as? String)
                rows[id] = row
                newest = max(newest, (row["block_time"] as? NSNumber)?.int64Value ?? 0)
            }
            if page.count < 50 || newest == cursor { break }
            cursor = newest
        }
        return rows
    }

    /// The queries that read every row the traffic made: each sender's routes, each alias.
    static func queries(_ traffic: SimulatedKasiaTraffic) -> [(route: String, query: String)] {
        var queries: [(String, String)] = []
        for (index, address) in traffic.addresses.enumerated() {
            let text = address.description
            queries += [
                ("handshakes/by-sender", "address=\(text)"), ("handshakes/by-receiver", "address=\(text)"),
                ("payments/by-sender", "address=\(text)"), ("payments/by-receiver", "address=\(text)"),
                ("self-stash/by-owner", "owner=\(text)&scope=\(Hex.encode(Array("saved_handshake".utf8)))"),
            ]
            for alias in SimulatedKasiaTraffic.aliases(sender: index) {
                queries.append(("contextual-messages/by-sender", "address=\(text)&alias=\(Hex.encode(Array(alias.utf8)))"))
            }
        }
        return queries
    }

    /// Reads every route from the server and from the simulated indexer and expects them equal,
    /// row for row and member for member; answers how many rows were compared.
    @discardableResult
    static func expectRoutesEqual(server: TestClient, indexer: TestClient, traffic: SimulatedKasiaTraffic)
        async throws -> Int
    {
        var compared = 0
        for (route, query) in queries(traffic) {
            let ours = try await allRows(server, "/kasia/\(route)", query)
            let truth = try await allRows(indexer, "/\(route)", query)
            let missing = Set(truth.keys).subtracting(ours.keys).sorted()
            let extra = Set(ours.keys).subtracting(truth.keys).sorted()
            #expect(missing.isEmpty && extra.isEmpty, "\(route)?\(query): missing \(missing.prefix(3)), extra \(extra.prefix(3))")
            let differing = truth.filter { id, row in ours[id] != nil && ours[id] != row }.prefix(3)
            for (id, row) in differing {
                Issue.record("\(route)?\(query) tx \(id): server \(ours[id].map(String.init(describing:)) ?? "missing"), indexer \(row)")
            }
            compared += truth.count
        }
        return compared
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
