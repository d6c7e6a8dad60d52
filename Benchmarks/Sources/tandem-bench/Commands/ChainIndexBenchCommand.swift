import ArgumentParser
import BenchSupport
import CommandLineContract
import Foundation
import TandemServer

/// `tandem-bench chain-index`: catch-up ingest of a Kasia chain and reads during ingest (issue 25).
struct ChainIndexBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chain-index",
        abstract:
            "The server's chain index: catch-up ingest rate against the chain's ceiling, and reads during ingest (issue 25).",
        discussion: """
            Serves a simulated node in this process with deterministic Kasia traffic \
            (SimulatedKasiaTraffic: every kind the indexer keeps, and two it skips), in two halves. A \
            real server (buildApplication, --kaspa-node on loopback) catches up the first half on an \
            empty database, is read while idle, stops, and catches up the second half while the same \
            reads run. Timed: from the server's start to its stored cursor being the node's tip.

            The ceiling: 10 blocks/s × the contextual messages one block's compute-mass limit \
            (500,000) holds, from the mass of a typical one (a sealed 50-character text, one input, \
            one change output). Baseline in the same run: the walk alone (every page read and \
            decoded at level High, nothing stored). After the idle reads, the same reads run beside \
            a busy loop at SCHED_IDLE (chrt --idle 0), with no ingest: what any concurrent work \
            costs them on this machine, whatever its priority. The node, the server and the reader share the \
            process and its cores (with --node-process, the node runs apart under SCHED_IDLE).

            Then the database alone: part B's rows, read back from the store and given new ids, \
            are written again through the same store in commits of the ingester's size, paced to \
            part B's catch-up rate, beside a server with no node serving the same reads (an idle \
            pass first): what writing these rows does to the reads with no ingest code running.
            """
    )

    @Option(help: "Transactions on the chain, half before each catch-up.") var transactions = 20_000
    @Option(help: "Senders (each one transaction per round).") var senders = 100
    @Option(help: "Rounds per block.") var roundsPerBlock = 2
    @Option(help: "Reads in the idle pass (the pass during ingest reads until the index is caught up).")
    var reads = 400
    @Option(
        help: ArgumentHelp(
            "Reads per second on a fixed schedule, each timed from when it was due (default: back to back).",
            valueName: "n"))
    var readRate: Int?
    @Flag(
        help: ArgumentHelp(
            "Open the server's node connection on NIO's shared event loops, not on the background loop `tandem serve` uses (for an A/B)."
        ))
    var sharedEventLoops = false
    @Option(help: "Rows per ingest commit (the server's default: 2,000).")
    var rowsPerCommit = KaspaIndexConfiguration.defaultRowsPerCommit
    @Option(
        help: ArgumentHelp(
            "How long the ingest waits for the reads in flight before each commit (0: no wait).", valueName: "ms"))
    var readYieldMs = 20
    @Flag(help: "SQLite checkpoints in the commit that passes 1,000 WAL pages, as before issue 49 item 5.")
    var commitCheckpoints = false
    @Option(help: ArgumentHelp("Run on PostgreSQL (its tables are emptied).", valueName: "postgres://…"))
    var databaseURL: String?
    @Flag(
        help: ArgumentHelp(
            "Run the node as a tandem-simnode process under SCHED_IDLE (chrt --idle: it runs on cores nothing else wants, standing for a node on another machine) instead of in this process."
        ))
    var nodeProcess = false
    @Option(
        help: ArgumentHelp("The `tandem-simnode` binary (default: the one next to this executable).", valueName: "path")
    )
    var simnode: String?
    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        guard transactions > 0, senders > 0, roundsPerBlock > 0, reads > 0, readRate.map({ $0 > 0 }) ?? true,
            rowsPerCommit > 0, readYieldMs >= 0
        else {
            throw CLIError(
                "--transactions, --senders, --rounds-per-block, --reads, --read-rate and --rows-per-commit must be positive, --read-yield-ms not negative"
            )
        }
        var configuration = ChainIndexBenchmarks.Configuration()
        configuration.transactions = transactions
        configuration.senders = senders
        configuration.roundsPerBlock = roundsPerBlock
        configuration.reads = reads
        configuration.readRate = readRate
        configuration.sharedEventLoops = sharedEventLoops
        configuration.rowsPerCommit = rowsPerCommit
        configuration.readYield = .milliseconds(readYieldMs)
        configuration.commitCheckpoints = commitCheckpoints
        configuration.databaseURL = databaseURL
        if nodeProcess {
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            let path =
                simnode
                ?? URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("tandem-simnode")
                .path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw CLIError("--simnode \(path): not an executable (build it: swift build --product tandem-simnode)")
            }
            configuration.simnode = path
        }
        let report = try await ChainIndexBenchmarks.run(configuration) { line in
            FileHandle.standardError.write(Data("chain-index: \(line)\n".utf8))
        }
        if json { try CommandIO.printJSON(report) } else { CommandIO.write(Self.markdown(report)) }
    }

    static func markdown(_ report: ChainIndexBenchmarks.Report) -> String {
        func two(_ value: Double) -> String { String(format: "%.2f", value) }
        var lines = [
            "chain-index on \(report.backend), node \(report.node): \(report.transactions) transactions, \(report.kasiaRows) Kasia rows, \(report.blocks) blocks",
            "ceiling: \(report.ceiling.perSecond) contextual messages/s (\(report.ceiling.perBlock) per block of mass \(report.ceiling.messageComputeMass), \(report.ceiling.messageBytes)-byte payload)",
            "",
            "| catch-up | rows | seconds | rows/s | ÷ ceiling |",
            "|---|---:|---:|---:|---:|",
        ]
        for (index, ingest) in report.ingest.enumerated() {
            lines.append(
                "| \(index == 0 ? "A, empty database" : "B, after A") | \(ingest.rows) | \(two(ingest.seconds)) | \(Int(ingest.rowsPerSecond)) | \(two(ingest.ratioToCeiling))× |"
            )
        }
        lines.append("| baseline: the walk alone | \(report.kasiaRows) | | \(Int(report.walkOnlyRowsPerSecond)) | |")
        typealias Latency = ChainIndexBenchmarks.Latency
        func row(_ label: String, _ latency: Latency) -> String {
            "| \(label) | \(latency.count) | \(two(latency.p50Milliseconds)) | \(two(latency.p99Milliseconds)) |"
        }
        func ratio(_ label: String, _ latency: Latency, over idle: Latency) -> String {
            let p50 = latency.p50Milliseconds / max(idle.p50Milliseconds, 1e-9)
            let p99 = latency.p99Milliseconds / max(idle.p99Milliseconds, 1e-9)
            return "| \(label) | | \(two(p50))× | \(two(p99))× |"
        }
        let header = ["| count | p50 ms | p99 ms |", "|---|---:|---:|---:|"]
        let schedule = report.readRate.map { "\($0)/s on a schedule" } ?? "back to back"
        lines += [
            "",
            "| reads (\(schedule)) " + header[0], header[1],
            row("idle", report.readsIdle),
            row("idle, beside a busy loop at SCHED_IDLE", report.readsBesideIdleLoop),
            row("during ingest", report.readsDuringIngest),
            ratio("ratio: beside the loop ÷ idle", report.readsBesideIdleLoop, over: report.readsIdle),
            ratio("ratio: during ingest ÷ idle", report.readsDuringIngest, over: report.readsIdle),
        ]
        let alone = report.databaseAlone
        lines += [
            "",
            "the database alone: \(alone.rows) rows of part B again, with no node, at \(Int(alone.rowsPerSecond)) rows/s (paced to part B's \(Int(alone.targetRowsPerSecond))):",
            "",
            "| reads " + header[0], header[1],
            row("idle", alone.readsIdle),
            row("during the writes", alone.readsDuring),
            ratio("ratio", alone.readsDuring, over: alone.readsIdle),
        ]
        lines.append(
            "\nlive: a new block, mined → stored: p50 \(two(report.live.p50Milliseconds)) ms, p99 \(two(report.live.p99Milliseconds)) ms (\(report.live.count) blocks)"
        )
        return lines.joined(separator: "\n") + "\n"
    }
}
