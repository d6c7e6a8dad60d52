import ArgumentParser
import BenchSupport
import Foundation
import MicroBenchmarks

/// `tandem-bench wallet-node`: issue 24's wallet figures through a simulated node process.
struct WalletNodeBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wallet-node",
        abstract: "Kaspa wallet through a node: client CPU per sent message, reconnect and resync (issue 24).",
        discussion: """
            Starts `tandem-simnode` on a loopback port, funds a fresh profile's testnet address, and \
            makes a KaspaWallet live on it (KaspaNodeClient over the NIO WebSocket transport, node \
            events applied as `tandem wallet watch` does). Then:

            1. CPU per message: this process's user + system CPU (getrusage, all threads) per \
            self-spend `send` with a 160-byte payload, beside building and signing the same \
            transaction from one UTXO, in alternating rounds of --per-block sends; a block is mined \
            after each round and the UtxosChanged that settles it is applied (reported apart, and \
            added in the second ratio). The node's CPU is not counted (it is another process), but \
            it shares the machine's cores.
            A `ping` round trip through the same client is timed alongside, for scale, and so is \
            the floor under any submit: `ping` round trips on a bare swift-websocket connection (one \
            task writing a frame and reading the answer, none of Tandem's client), each round on a \
            fresh connection, 5 × --per-block round trips after 20 unmeasured.
            2. Reconnect: the node drops every WebSocket; the time until the wallet has re-read its \
            UTXOs after the reconnect (the client's backoff, 200 ms at first, included), then a \
            fund must arrive as UtxosChanged.

            The pure figures (10,000-UTXO select + build, 1,000-entry UtxosChanged) are \
            `tandem-bench wallet`.
            """
    )

    @Option(
        help: ArgumentHelp("The `tandem-simnode` binary (default: the one next to this executable).", valueName: "path")
    )
    var simnode: String?
    @Option(help: "Messages sent and measured (after one warm-up round).") var messages = 200
    @Option(name: .customLong("per-block"), help: "Messages sent between two mined blocks (one round).")
    var perBlock = 20
    @Option(help: "Baseline builds per round.") var builds = 100
    @Option(help: "Dropped connections timed.") var reconnects = 10
    @Option(
        help: ArgumentHelp(
            "Where to make the profile, whose pending journal every send appends to (default: the temporary directory).",
            valueName: "dir"))
    var directory: String?
    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        guard messages > 0, perBlock > 0, builds > 0, reconnects > 0 else {
            throw CLIError("--messages, --per-block, --builds and --reconnects must be positive")
        }
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let simnode =
            simnode
            ?? URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("tandem-simnode")
            .path
        guard FileManager.default.isExecutableFile(atPath: simnode) else {
            throw CLIError("--simnode \(simnode): not an executable (build it: swift build --product tandem-simnode)")
        }
        var configuration = WalletNodeBenchmarks.Configuration(simnode: simnode)
        configuration.messages = messages
        configuration.messagesPerBlock = perBlock
        configuration.baselineBuildsPerRound = builds
        configuration.reconnects = reconnects
        configuration.directory = directory.map { URL(fileURLWithPath: $0) }
        let report = try await WalletNodeBenchmarks.run(configuration)
        if json {
            try CommandIO.printJSON(report)
        } else {
            CommandIO.write(Self.markdown(report))
        }
    }

    static func markdown(_ report: WalletNodeBenchmarks.Report) -> String {
        let send = report.send
        let reconnect = report.reconnect
        func µs(_ value: Double) -> String { "\(rounded(value, places: 1)) µs" }
        func ms(_ values: [Double]) -> String {
            "\(rounded(WalletNodeBenchmarks.median(values), places: 1)) / \(rounded(values.max() ?? 0, places: 1)) ms"
        }
        return """
            ### Kaspa wallet through a node: CPU per sent message (\(send.messages) messages, \(send.rounds) rounds)

            | | CPU per message (mean) | median round | wall (median) | × baseline |
            |---|---:|---:|---:|---:|
            | build + sign from one UTXO (baseline) | \(µs(send.baselineCPUMicroseconds)) | \(µs(send.baselineCPUMedianRoundMicroseconds)) | \(µs(send.baselineWallMicroseconds)) | 1.0× |
            | `wallet.send` (build, sign, submit, bookkeeping) | \(µs(send.sendCPUMicroseconds)) | \(µs(send.sendCPUMedianRoundMicroseconds)) | \(µs(send.sendWallMedianMicroseconds)) | \(formatRatio(send.ratio)) |
            | + its share of the block's UtxosChanged settle | \(µs(send.sendCPUMicroseconds + send.settleCPUMicroseconds)) | | | \(formatRatio(send.ratioWithSettle)) |
            | for scale: one `ping` through the node client (no wallet) | \(µs(send.pingCPUMicroseconds)) | | | \(formatRatio(send.pingCPUMicroseconds / send.baselineCPUMicroseconds)) |
            | floor: one `ping` round trip on a bare swift-websocket connection | \(µs(send.minimalRoundTripCPUMicroseconds)) | | | \(formatRatio(send.minimalRoundTripCPUMicroseconds / send.baselineCPUMicroseconds)) |
            | floor of a send: build + sign + the bare round trip | \(µs(send.baselineCPUMicroseconds + send.minimalRoundTripCPUMicroseconds)) | | | \(formatRatio(send.floorRatio)) |

            ### Reconnect and resync after a dropped connection (\(reconnect.resyncMilliseconds.count) drops)

            | | median / max |
            |---|---:|
            | drop → wallet saw the disconnect | \(ms(reconnect.detectMilliseconds)) |
            | drop → reconnected, re-subscribed, UTXOs re-read | \(ms(reconnect.resyncMilliseconds)) |
            | then a fund → its UtxosChanged applied | \(ms(reconnect.fundAppliedMilliseconds)) |

            """
    }
}
