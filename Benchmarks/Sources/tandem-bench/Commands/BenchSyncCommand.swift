import ArgumentParser
import BenchSupport
import Foundation
import Logging
import MicroBenchmarks
import ServiceLifecycle
import TandemServer
import TandemServerStore

/// `tandem-bench sync`: issue 12's figures against a `tandem serve` application in this process
/// on loopback: nodes accepted per second beside raw Ed25519 verifies per second of the same
/// nodes in the same run, a new device's pull + validate + replay, a sync with nothing new, and a
/// full contacts sync. Each figure is the median of `--runs` runs (the machine is shared); with
/// `--database-url` the runs are repeated on PostgreSQL after SQLite.
struct BenchSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Sync figures: server nodes/s vs raw Ed25519 verifies/s, 10k-node pull, no-op sync, 10k contacts.",
        discussion: "Build with -c release.")

    @Option(name: .long, help: "Nodes pushed and pulled.") var nodes = 10_000
    @Option(name: .long, help: "Contact records synced.") var contacts = 10_000
    @Option(name: .long, help: "Chat history messages synced.") var chatMessages = 10_000
    @Option(name: .long, help: "Samples of the no-op sync per run (median reported).") var samples = 21
    @Option(name: .long, help: "Runs per backend (medians reported).") var runs = 3
    @Option(name: .long, help: "PostgreSQL URL: the runs again on PostgreSQL (default: none).") var databaseURL: String?
    @Flag(
        name: .long,
        help:
            "Print the CLOCK_MONOTONIC window of the nodes' push and each contacts step (for perf record -k CLOCK_MONOTONIC)."
    )
    var windows = false
    @Flag(
        name: .long,
        help:
            "Run the server as a child process (`tandem-bench relay-server`, the same application), so the push's server CPU is read from /proc apart from the client's."
    )
    var serverProcess = false

    func run() async throws {
        var backends: [(String, String?)] = [("SQLite", nil)]
        if let databaseURL, !databaseURL.isEmpty { backends.append(("PostgreSQL", databaseURL)) }
        for (name, url) in backends {
            var all: [SyncBenchRun.Figures] = []
            for run in 1...max(1, runs) {
                let figures = try await measure(databaseURL: url)
                CommandIO.write("\(name) run \(run): \(Self.summary(figures, nodes: nodes))\n")
                all.append(figures)
            }
            CommandIO.write(table(name, all).joined(separator: "\n") + "\n\n")
        }
    }

    /// One run against a fresh application (a new SQLite file, or the given PostgreSQL database).
    private func measure(databaseURL: String?) async throws -> SyncBenchRun.Figures {
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tandem-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        if serverProcess { return try await measureApart(directory: directory, databaseURL: databaseURL) }
        let storage: StorageBackend = databaseURL.map { .postgres(url: $0) } ?? .sqlite(dataDirectory: directory)
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, storage: storage, dataDirectory: directory, rateLimiting: false,
            connections: .loadGenerator)
        let ports = PortCollector()
        let app = try await buildApplication(configuration: configuration, logger: logger) {
            await ports.add("tandem", $0)
        }
        let group = ServiceGroup(services: [app], logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            let port = await ports.wait(for: "tandem")
            guard let server = URL(string: "http://127.0.0.1:\(port)") else { throw CLIError("bench: bad port") }
            var run = SyncBenchRun(
                server: server, directory: directory, nodes: nodes, contacts: contacts, samples: samples,
                windows: windows)
            run.chatMessages = chatMessages
            let figures = try await run.measure()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return figures
        }
    }

    /// One run against the server as a child process with its own data directory: the
    /// client's CPU is this process's, the server's is read from `/proc`.
    private func measureApart(directory: URL, databaseURL: String?) async throws -> SyncBenchRun.Figures {
        let serverDirectory = directory.appendingPathComponent("server")
        try FileManager.default.createDirectory(at: serverDirectory, withIntermediateDirectories: true)
        let process = try RelayServerProcess(dataDirectory: serverDirectory, databaseURL: databaseURL)
        defer { process.stop() }
        guard let server = URL(string: "http://127.0.0.1:\(process.port)") else { throw CLIError("bench: bad port") }
        var run = SyncBenchRun(
            server: server, directory: directory, nodes: nodes, contacts: contacts, samples: samples,
            windows: windows)
        run.chatMessages = chatMessages
        run.serverCPUSeconds = { try process.cpuSeconds() }
        return try await run.measure()
    }

    private static func summary(_ figures: SyncBenchRun.Figures, nodes: Int) -> String {
        let ratio = figures.verify / figures.push
        return "verify \(formatDuration(figures.verify * 1e9)), push \(formatDuration(figures.push * 1e9)) "
            + "(\(formatRatio(ratio)); CPU \(formatDuration(figures.pushCPU * 1e9)), "
            + "\(formatRatio(figures.verifyCPU / figures.pushCPU)) per core, verify CPU "
            + "\(formatDuration(figures.verifyCPU * 1e9))\(serverPart(figures))), pull \(formatDuration(figures.pull * 1e9)) "
            + "(CPU \(formatDuration(figures.pullCPU * 1e9))), "
            + "idle \(formatDuration(figures.idleMedian * 1e9)), contacts push "
            + "\(formatDuration(figures.contactsPush * 1e9)), pull \(formatDuration(figures.contactsPull * 1e9)), "
            + "chat push \(formatDuration(figures.chatPush * 1e9)), pull \(formatDuration(figures.chatPull * 1e9))"
    }

    /// The server's share of the push, when it ran apart.
    private static func serverPart(_ figures: SyncBenchRun.Figures) -> String {
        guard let server = figures.serverPushCPU else { return "" }
        return "; server CPU \(formatDuration(server * 1e9)), \(formatRatio(figures.verifyCPU / server)) per core"
    }

    private func table(_ backend: String, _ all: [SyncBenchRun.Figures]) -> [String] {
        func mid(_ value: (SyncBenchRun.Figures) -> Double) -> Double { median(all.map(value)) }
        func time(_ seconds: Double) -> String { formatDuration(seconds * 1e9) }
        let verify = mid(\.verify)
        let push = mid(\.push)
        let ratio = mid { $0.verify / $0.push }
        let perCore = mid { $0.verifyCPU / $0.pushCPU }
        let apart = all.allSatisfy { $0.serverPushCPU != nil }
        let serverPerCore = mid { $0.verifyCPU / ($0.serverPushCPU ?? .infinity) }
        let rows: [String?] = [
            "### \(backend): \(nodes) nodes, \(contacts) contact records, loopback, median of \(all.count) runs",
            "",
            "| benchmark | median time | rate | × baseline | goal |",
            "|---|---:|---:|---:|---|",
            "| raw Ed25519 verify of the nodes' bodies (baseline) | \(time(verify)) | "
                + "\(formatRate(Double(nodes) / verify)) /s | 1.0× | |",
            "| server accepts nodes (POST /api/redo/nodes, 500 per call, client included) | \(time(push)) | "
                + "\(formatRate(Double(nodes) / push)) /s | \(formatRatio(ratio)) | |",
            backend == "SQLite"
                ? "| the same, per core: the verify's CPU time (\(time(mid(\.verifyCPU)))) ÷ the CPU the push took "
                    + "(client and server, every thread) | \(time(mid(\.pushCPU))) CPU | | \(formatRatio(perCore)) | ≥ 0.5× |"
                : "| the same, per core | not measured: the database's CPU is in its own processes | | | |",
            apart && backend == "SQLite"
                ? "| the same, per core, the server alone: the verify's CPU time ÷ the server process's CPU "
                    + "during the push (/proc) | \(time(mid { $0.serverPushCPU ?? 0 })) CPU | | \(formatRatio(serverPerCore)) | ≥ 0.5× |"
                : nil,
            "| new device: first sync (key, pull, validate, store) + state of \(nodes) nodes | "
                + "\(time(mid(\.pull))) | | | < 1 s |",
            "| sync with nothing new (median of \(samples) per run) | \(time(mid(\.idleMedian))) | | | < 20 ms |",
            "| contacts: first push of \(contacts) records | \(time(mid(\.contactsPush))) | | | |",
            "| contacts: new device pulls + merges \(contacts) records | \(time(mid(\.contactsPull))) | | | < 1 s |",
            "| chat history: first push of \(chatMessages) messages | \(time(mid(\.chatPush))) | | | |",
            "| chat history: new device pulls + merges \(chatMessages) messages (× the contacts pull of the run) | "
                + "\(time(mid(\.chatPull))) | | \(formatRatio(mid { $0.chatPull / $0.contactsPull })) | < 5 s |",
            "| chat history: sync with nothing new, \(chatMessages) messages held (median of \(samples) per run) | "
                + "\(time(mid(\.chatIdle))) | | | |",
        ]
        return rows.compactMap { $0 }
    }
}
