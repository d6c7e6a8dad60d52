import Foundation
import KaspaSimNode
import TandemBasics
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `tandem serve --kaspa-node` as a real process following a real `tandem-simnode` (issue 25
/// "Tests"): SIGKILLed while it ingests a burst, restarted on the same database, it resumes from
/// its committed cursor, and every route then equals the simulated node's indexer.
@Suite(.serialized) struct ChainIndexCLITests {
    static let senders = 12

    static func arguments(_ node: SimNodeProcess, _ index: Int = 0) -> [String] {
        ["--no-rate-limit", "--kaspa-node", node.url(index), "--kaspa-network", "testnet-10"]
    }

    /// `--kaspa-*` mistakes stop `tandem serve` before it starts: exit 1, one line on stderr.
    @Test(arguments: [
        (["--kaspa-node", "ws://127.0.0.1:1"], "--kaspa-network"),
        (["--kaspa-node", "http://127.0.0.1:1", "--kaspa-network", "testnet-10"], "ws://"),
        (["--kaspa-node", "ws://127.0.0.1:1", "--kaspa-network", "testnet-11"], "mainnet or testnet-10"),
        (["--kaspa-node", "ws://127.0.0.1:1", "--kaspa-network", "mainnet", "--kaspa-start-hash", "abc"], "64 hex"),
        (["--kaspa-network", "mainnet"], "need --kaspa-node"),
    ])
    func badKaspaOptionsExitOneWithOneLine(arguments: [String], says: String) async throws {
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let output = try await TandemProcess.run(["serve", "--port", "0", "--data-dir", data.url.path] + arguments)
        #expect(output.status == 1)
        #expect(output.stderrLines.count == 1)
        #expect(output.stderrText.contains(says), "\(output.stderrText)")
    }

    @Test(arguments: RelayBackend.available)
    func aServerKilledDuringABurstResumesWithNoGapAndNoDuplicate(backend: RelayBackend) async throws {
        try await backend.withDatabase { databaseURL in
            let node = try await SimNodeProcess.start()
            // Given a chain already long when the server starts
            let traffic = try await node.control(
                "traffic", ["senders": Self.senders, "rounds": 80, "roundsPerBlock": 1])
            let addresses = try #require(traffic["addresses"] as? [String])
            let data = try TemporaryDirectory()
            defer { data.remove() }
            let first = try await ServerProcess.start(
                dataDirectory: data, databaseURL: databaseURL, extraArguments: Self.arguments(node))
            // When a burst arrives and the server is SIGKILLed once it has stored part of the chain
            let control = "http://127.0.0.1:\(node.ports[0])/sim/traffic"
            let burst = Task {
                try await Self.post(control, ["senders": Self.senders, "rounds": 80, "roundsPerBlock": 1])
            }
            try await Self.waitUntil("the server has stored some rows", within: .seconds(60)) {
                try await Self.latestBlock(first.baseURL) != String(repeating: "0", count: 64)
            }
            await first.killed()
            // Then, restarted on the same database after the burst, it catches up exactly
            _ = try await burst.value
            let second = try await ServerProcess.start(
                dataDirectory: data, databaseURL: databaseURL, extraArguments: Self.arguments(node))
            let tip = try #require(try await node.control("state")["tip"] as? String)
            try await Self.waitUntil("the index reaches the node's tip", within: .seconds(60)) {
                try await Self.latestBlock(second.baseURL) == tip
            }
            try await Self.expectRoutesEqual(
                server: second.baseURL, node: node, addresses: addresses, minimumRows: 1_000)
            await second.killed()
        }
    }

    /// Two instances on one PostgreSQL database (issue 25 item 4): one ingests, the other
    /// stands by and serves reads; SIGKILL the ingester and the other takes over within 10 s,
    /// missing nothing.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["POSTGRES_URL"] != nil, "PostgreSQL only: set POSTGRES_URL"))
    func aStandbyInstanceTakesOverWithinTenSecondsWhenTheIngesterDies() async throws {
        try await RelayBackend.postgres.withDatabase { databaseURL in
            let node = try await SimNodeProcess.start()
            let traffic = try await node.control(
                "traffic", ["senders": Self.senders, "rounds": 40, "roundsPerBlock": 1])
            let addresses = try #require(traffic["addresses"] as? [String])
            let servers = [
                try await ServerProcess.start(databaseURL: databaseURL, extraArguments: Self.arguments(node)),
                try await ServerProcess.start(databaseURL: databaseURL, extraArguments: Self.arguments(node)),
            ]
            var roles: [String] = []
            try await Self.waitUntil("one instance ingests and the other stands by", within: .seconds(30)) {
                roles = try await servers.asyncMap { try await Self.role($0.baseURL) }
                return roles.sorted() == ["ingester", "standby"]
            }
            let ingester = try #require(roles.firstIndex(of: "ingester"))
            let standby = servers[1 - ingester]
            // Both serve reads of the same rows.
            let tip = try #require(try await node.control("state")["tip"] as? String)
            try await Self.waitUntil("the index reaches the node's tip", within: .seconds(60)) {
                try await Self.latestBlock(standby.baseURL) == tip
            }
            // When the ingester is SIGKILLed, the standby takes over within 10 s
            await servers[ingester].killed()
            let killedAt = ContinuousClock.now
            try await Self.waitUntil("the standby takes over", within: .seconds(10)) {
                try await Self.role(standby.baseURL) == "ingester"
            }
            let takeover = ContinuousClock.now - killedAt
            #expect(takeover < .seconds(10))
            print("ingester takeover after SIGKILL: \(takeover)")
            // And it follows the chain from where the other stopped
            try await node.control("traffic", ["senders": Self.senders, "rounds": 20, "roundsPerBlock": 1])
            let newTip = try #require(try await node.control("state")["tip"] as? String)
            try await Self.waitUntil("the new ingester reaches the node's tip", within: .seconds(60)) {
                try await Self.latestBlock(standby.baseURL) == newTip
            }
            try await Self.expectRoutesEqual(
                server: standby.baseURL, node: node, addresses: addresses, minimumRows: 600)
            _ = await standby.stopped()
        }
    }

    /// `/health`'s `kaspa.role`.
    static func role(_ base: String) async throws -> String {
        let (status, body) = try await fetch(base)("/health")
        guard status == 200, let object = try JSONSerialization.jsonObject(with: body) as? [String: Any],
            let kaspa = object["kaspa"] as? [String: Any]
        else { return "" }
        return kaspa["role"] as? String ?? ""
    }

    /// Every route of `addresses` on `server` equals the node's indexer, which holds at least
    /// `minimumRows` rows of them (so an empty chain cannot pass).
    static func expectRoutesEqual(server: String, node: SimNodeProcess, addresses: [String], minimumRows: Int)
        async throws
    {
        let queries = KasiaRouteComparison.queries(
            addresses: addresses,
            aliasHexes: addresses.indices.map { index in
                SimulatedKasiaTraffic.aliases(sender: index).map { Hex.encode(Array($0.utf8)) }
            },
            scopeHex: Hex.encode(Array("saved_handshake".utf8)))
        let (differences, rows) = try await KasiaRouteComparison.differences(
            ours: fetch(server), ourPrefix: "/kasia", truth: fetch("http://127.0.0.1:\(node.ports[0])"),
            queries: queries, ourMembers: KasiaRouteComparison.tandemMembers)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        #expect(rows >= minimumRows)
    }

    static func fetch(_ base: String) -> KasiaRouteComparison.Fetch {
        { path in
            guard let url = URL(string: base + path) else {
                throw KasiaRouteComparison.Failure(message: "bad URL \(path)")
            }
            let (data, response) = try await URLSession.shared.data(from: url)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        }
    }

    /// A JSON POST that must answer 200.
    static func post(_ address: String, _ body: [String: Int]) async throws {
        guard let url = URL(string: address) else { throw KasiaRouteComparison.Failure(message: "bad URL \(address)") }
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else {
            throw KasiaRouteComparison.Failure(message: "\(address): \(String(decoding: data, as: UTF8.self))")
        }
    }

    /// `/kasia/metrics`' `latest_accepting_block`: the last chain block the index stored.
    static func latestBlock(_ base: String) async throws -> String {
        let (status, body) = try await fetch(base)("/kasia/metrics")
        guard status == 200, let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            return ""
        }
        return object["latest_accepting_block"] as? String ?? ""
    }

    /// A bounded poll of a condition: the deadline only turns a hang into a failure.
    static func waitUntil(_ what: String, within: Duration, _ condition: () async throws -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + within
        while clock.now < deadline {
            if (try? await condition()) == true { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("timed out waiting until \(what)")
        throw CancellationError()
    }
}

extension Array {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
