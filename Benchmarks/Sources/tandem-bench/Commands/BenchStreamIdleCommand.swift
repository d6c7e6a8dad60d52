import ArgumentParser
import BenchSupport
import Foundation

/// `tandem-bench stream-idle`: CPU used by a connected, quiet `tandem chat listen` and `chat ui`
/// (issue 16), with the library's URLSession stream transport (before) and the CLI's
/// AsyncHTTPClient one (after) side by side in one run against one relay.
struct BenchStreamIdleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stream-idle",
        abstract: "CPU of an idle `chat listen` and `chat ui` on the live stream: URLSession against AsyncHTTPClient."
    )

    @Option(help: ArgumentHelp("The `tandem` binary (default: the one next to this executable).", valueName: "path"))
    var tandem: String?
    @Option(help: "Seconds of CPU time measured per sample.") var seconds: Double = 10
    @Option(help: "Seconds to let a client sync and connect before measuring.") var settle: Double = 3
    @Option(help: "Samples per client and transport (the median is reported).") var samples: Int = 3
    @Flag(help: "Print the result as JSON.") var json = false

    struct Row: Encodable {
        let client: String
        let transport: String
        /// Median CPU seconds per second of wall time (1.0 = one core busy).
        let coreShare: Double
        let samples: [Double]
    }

    func run() throws {
        guard seconds > 0, settle >= 0, samples >= 1 else {
            throw CLIError("--seconds, --settle, --samples: expected positive values")
        }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let tandem =
            tandem ?? URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("tandem").path
        guard FileManager.default.isExecutableFile(atPath: tandem) else {
            throw CLIError("--tandem \(tandem): not an executable")
        }
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent(
            "tandem-stream-idle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        let relayData = workspace.appendingPathComponent("relay")
        try FileManager.default.createDirectory(at: relayData, withIntermediateDirectories: true)
        let server = try RelayServerProcess(dataDirectory: relayData, databaseURL: nil)
        defer { server.stop() }
        let profile = workspace.appendingPathComponent("profile").path
        let keys = Process()
        keys.executableURL = URL(fileURLWithPath: tandem)
        keys.arguments = ["keys", "new", "--profile", profile]
        keys.standardOutput = FileHandle.nullDevice
        try keys.run()
        keys.waitUntilExit()
        guard keys.terminationStatus == 0 else { throw CLIError("stream-idle bench: `tandem keys new` failed") }

        let transports = ["urlsession", "async-http-client"]
        var measured: [String: [Double]] = [:]
        for sample in 0..<samples {
            for client in ["listen", "ui"] {
                // Alternate which transport goes first, so drift on the shared machine spreads evenly.
                for transport in sample % 2 == 0 ? transports : transports.reversed() {
                    let process = try IdleClientProcess(
                        tandem: tandem,
                        arguments: [
                            "chat", client, "--server", "http://127.0.0.1:\(server.port)", "--profile", profile,
                            "--stream-transport", transport,
                        ],
                        terminal: client == "ui")
                    defer { process.stop() }
                    Thread.sleep(forTimeInterval: settle)
                    let start = try process.cpuSeconds()
                    Thread.sleep(forTimeInterval: seconds)
                    measured["\(client) \(transport)", default: []].append((try process.cpuSeconds() - start) / seconds)
                }
            }
        }
        let rows = ["listen", "ui"].flatMap { client in
            transports.map { transport in
                let values = measured["\(client) \(transport)"] ?? []
                return Row(
                    client: "chat \(client)", transport: transport, coreShare: Self.median(values), samples: values)
            }
        }
        if json {
            try CommandIO.printJSON(rows)
        } else {
            var table =
                "| client (idle, connected) | stream transport | CPU, share of one core (median of \(samples) × \(seconds) s) |\n|---|---|---:|\n"
            for row in rows {
                table += "| \(row.client) | \(row.transport) | \(String(format: "%.1f %%", row.coreShare * 100)) |\n"
            }
            CommandIO.write(table)
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted.count % 2 == 1
            ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }
}
