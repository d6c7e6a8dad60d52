import ArgumentParser
import BenchSupport
import Foundation
import KaspaCrypto
import MicroBenchmarks
import TandemAPI

/// `tandem-bench relay`: the Kasia relay's figures (issue 11): submissions/s against raw
/// BIP-340 verifies/s, the store's CPU per row alone, submit → stream latency with many open
/// streams, memory per idle stream, and indexer page latency at depth.
///
/// The server is this executable re-run as `relay-server` (a child process on a loopback
/// port, SQLite in a temporary directory, or PostgreSQL when a URL is given); the load comes
/// from plain keep-alive sockets on threads of this process. Every loop is bounded by count.
struct BenchRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract:
            "Relay submissions/s vs raw BIP-340 verifies/s, submit→stream p50/p99, memory per stream, page latency at depth.",
        discussion: """
            Build with -c release. Only 127.0.0.1 is used. With --database-url (or POSTGRES_URL) the \
            submission load also runs against a server on that PostgreSQL database.
            """
    )

    @Option(name: .long, help: "Pre-signed submissions for the throughput samples (split evenly; sample 0 is warm-up).")
    var requests = 24_000
    @Option(name: .long, help: "Concurrent keep-alive connections for the throughput samples.") var connections = 16
    @Option(name: .long, help: "Interleaved samples (verify, then load) after one warm-up sample.") var samples = 5
    @Option(name: .long, help: "Raw BIP-340 verifies per baseline sample.") var verifies = 2_000
    @Option(name: .long, help: "Idle streams open during the latency run, each on its own alias.") var streams = 1_000
    @Option(name: .long, help: "Messages submitted on the measured alias.") var submissions = 200
    @Option(name: .long, help: "Milliseconds between measured submissions.") var intervalMs = 20
    @Option(name: .long, help: "Rows behind the deep page of contextual-messages/by-sender.") var rows = 1_000_000
    @Option(name: .long, help: "PostgreSQL URL for a second submission run (default: $POSTGRES_URL).") var databaseURL:
        String?
    @Option(
        name: .long,
        help: "An older tandem-bench binary: its relay-server is loaded side by side with this one (before/after)."
    )
    var baselineServer: String?
    @Option(
        name: .long,
        help:
            "Load generator of the throughput lanes: swift (AsyncHTTPClient in this process), wrk, or both (each lane twice)."
    )
    var client = "swift"
    @Option(name: .long, help: "wrk's keep-alive connections (one wrk thread).") var wrkConnections = 4
    @Option(name: .long, help: "Seconds per wrk sample; each sample needs that many seconds of distinct bodies.")
    var wrkSeconds = 1
    @Option(name: .long, help: "Rows per sample of the store-alone lane (SQLite, in this process; 0 skips it).")
    var storeRows = 4_000
    @Option(name: .long, help: "Signing keys (1…155) taken in turn by the store-alone lane's rows.") var storeSenders =
        64
    @Flag(name: .long, help: "Print the figures as JSON instead of a Markdown summary.") var json = false

    func validate() throws {
        guard connections >= 1, connections <= 256 else { throw CLIError("--connections: 1…256") }
        guard samples >= 1, samples <= 50 else { throw CLIError("--samples: 1…50") }
        guard requests >= connections * (samples + 1), requests <= 1_000_000 else {
            throw CLIError("--requests: \(connections * (samples + 1))…1000000 (connections × (samples + 1) at least)")
        }
        guard verifies >= 1, verifies <= 1_000_000 else { throw CLIError("--verifies: 1…1000000") }
        guard streams >= 0, streams <= 10_000 else { throw CLIError("--streams: 0…10000") }
        guard submissions >= 1, submissions <= 100_000 else { throw CLIError("--submissions: 1…100000") }
        guard intervalMs >= 1, intervalMs <= 10_000 else { throw CLIError("--interval-ms: 1…10000") }
        guard ["swift", "wrk", "both"].contains(client) else { throw CLIError("--client: swift, wrk or both") }
        guard wrkConnections >= 1, wrkConnections <= 256 else { throw CLIError("--wrk-connections: 1…256") }
        guard wrkSeconds >= 1, wrkSeconds <= 60 else { throw CLIError("--wrk-seconds: 1…60") }
        guard storeRows >= 0, storeRows <= 100_000 else { throw CLIError("--store-rows: 0…100000") }
        guard storeSenders >= 1, storeSenders <= 155 else { throw CLIError("--store-senders: 1…155") }
        guard rows >= RelayPagingBench.pageRows, rows <= 10_000_000 else { throw CLIError("--rows: 50…10000000") }
    }

    func run() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tandem-bench-relay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Fresh nonces per run, so a reused PostgreSQL database never answers from an old row.
        let firstNonce = UInt64(Date().timeIntervalSince1970 * 1000) << 20
        // One set of bodies per load generator, so no lane resubmits what another stored.
        let clients = try loadGenerators(directory: directory)
        let bodies = try clients.indices.map { index in
            try RelayBenchFixtures.bodies(
                count: requests, key: try RelayBenchFixtures.key(3), alias: try RelayBenchFixtures.alias(77),
                firstNonce: firstNonce + UInt64(index * requests))
        }

        let sqliteDirectory = directory.appendingPathComponent("sqlite")
        try FileManager.default.createDirectory(at: sqliteDirectory, withIntermediateDirectories: true)
        // One server for the streams and another for the load, so neither phase inherits the
        // other's connections, subscriptions or heap.
        let streamServer = try RelayServerProcess(dataDirectory: sqliteDirectory, databaseURL: nil)
        let stream = try await RelayStreamLatency(
            server: streamServer, streams: streams, submissions: submissions, interval: .milliseconds(intervalMs)
        ).run()
        streamServer.stop()
        let sqlite = try await submissionRun(directory: directory, name: "sqlite", databaseURL: nil, clients: clients) {
            client, _ in bodies[client]
        }

        // The store alone, in this process, once the server children of the SQLite lanes are gone.
        var store: RelayStoreAlone.Result?
        if storeRows > 0 {
            store = try await RelayStoreAlone(
                connections: connections, samples: samples, rowsPerSample: storeRows, senders: storeSenders
            ).run(directory: sqliteDirectory, verifyIterations: verifies)
        }

        var postgres: RelaySubmissionLoad.Result?
        if let url = databaseURL ?? ProcessInfo.processInfo.environment["POSTGRES_URL"], !url.isEmpty {
            // One database for both servers: each lane signs with its own key, so no lane
            // resubmits a row that another lane stored.
            postgres = try await submissionRun(
                directory: directory, name: "postgres", databaseURL: url, clients: clients
            ) {
                client, lane in
                try RelayBenchFixtures.bodies(
                    count: requests, key: try RelayBenchFixtures.key(4 + lane),
                    alias: try RelayBenchFixtures.alias(78), firstNonce: firstNonce + UInt64(client * requests))
            }
        }

        let paging = try await RelayPagingBench(rows: rows, samples: samples).run(directory: directory)
        let report = RelayBenchReport(
            sqlite: sqlite, store: store, postgres: postgres, stream: stream, paging: paging)
        if json {
            try CommandIO.printJSON(report)
        } else {
            CommandIO.write(report.markdown + "\n")
        }
    }

    /// The load generators `--client` asks for: nil is this process's AsyncHTTPClient (`swift`).
    private func loadGenerators(directory: URL) throws -> [RelayWrkClient?] {
        var clients: [RelayWrkClient?] = client == "wrk" ? [] : [nil]
        if client != "swift" {
            guard let path = WrkRunner.locate() else { throw CLIError("wrk is not on PATH (apt-get install wrk)") }
            clients.append(
                RelayWrkClient(executable: path, connections: wrkConnections, seconds: wrkSeconds, directory: directory)
            )
        }
        return clients
    }

    /// The submission lanes on one backend, for each load generator: this server, the baseline
    /// server when given, the ceiling (this server's cheapest POST) and the same POST on a bare
    /// Hummingbird application (what the framework costs without Tandem's middleware); `bodies(client, lane)`
    /// signs the bodies of a lane (lane 0 this server, 1 the baseline).
    private func submissionRun(
        directory: URL, name: String, databaseURL: String?, clients: [RelayWrkClient?],
        bodies: (Int, UInt8) throws -> [[UInt8]]
    ) async throws -> RelaySubmissionLoad.Result {
        func server(_ suffix: String, executable: String?) throws -> RelayServerProcess {
            let data = directory.appendingPathComponent("\(name)-\(suffix)")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            return try RelayServerProcess(dataDirectory: data, databaseURL: databaseURL, executable: executable)
        }
        let current = try server("load", executable: nil)
        defer { current.stop() }
        var baseline: RelayServerProcess?
        defer { baseline?.stop() }
        if let baselineServer { baseline = try server("baseline", executable: baselineServer) }
        let minimal = try RelayServerProcess(dataDirectory: directory, databaseURL: nil, minimal: true)
        defer { minimal.stop() }
        var lanes: [RelaySubmissionLoad.Lane] = []
        for (index, wrk) in clients.enumerated() {
            let suffix = wrk == nil ? "" : " (wrk)"
            let currentBodies = try bodies(index, 0)
            lanes.append(
                .init(
                    name: "submissions\(suffix)", server: current, path: APIPath.kasiaTransactions,
                    expectedStatus: 200, bodies: currentBodies, wrk: wrk))
            if let baseline {
                lanes.append(
                    .init(
                        name: "baseline submissions\(suffix)", server: baseline, path: APIPath.kasiaTransactions,
                        expectedStatus: 200, bodies: databaseURL == nil ? currentBodies : try bodies(index, 1),
                        wrk: wrk))
            }
            lanes.append(
                .init(
                    name: "ceiling: POST \(APIPath.legacyLogin) (410, no body read, no store)\(suffix)",
                    server: current, path: APIPath.legacyLogin, expectedStatus: 410, bodies: currentBodies, wrk: wrk
                ))
            lanes.append(
                .init(
                    name: "minimal Hummingbird: POST \(APIPath.legacyLogin), fixed 410, no middleware\(suffix)",
                    server: minimal, path: APIPath.legacyLogin, expectedStatus: 410, bodies: currentBodies, wrk: wrk))
        }
        return try await RelaySubmissionLoad(connections: connections, samples: samples)
            .run(lanes: lanes, verifyIterations: verifies)
    }
}
