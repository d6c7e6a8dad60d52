import ArgumentParser
import BenchSupport
import Foundation
import MicroBenchmarks

/// `tandem-bench chat-node`: issue 24's chat figure through a simulated node in this process.
struct ChatNodeBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat-node",
        abstract:
            "Kaspa chat through a node: node notification → message in history, with 1,000 watched contacts (issue 24).",
        discussion: """
            Serves a simulated node in this process on a loopback port and makes two Kaspa-mode \
            profiles on it: a receiver whose routing table and contacts hold --contacts \
            conversations (generated addresses, with --history rows each; one of them is the \
            sender's, begun by a real handshake on chain), running `Messenger.listen()`; and a \
            sender. The sender sends messages one at a time; a block accepts each (mined through \
            the node's API) and the next is sent once the receiver's listen() has yielded it. Two \
            pacings alternate, --messages of each: the block mined as soon as the message is sent \
            (the receiver may still be busy with the previous one), or once the receiver is idle \
            (a call to its Messenger actor has returned).

            Timed per message, on this process's monotonic clock: from the node's UtxosChanged \
            frame for the receiver's live connection that carries the sender's change (stamped \
            when ready to write) to the message coming out of listen(), its row stored. Baseline \
            in the same run: one KasiaCipher.open + one insert into the receiver's history; for \
            scale, one ping round trip to the node. Where the time goes: every request the live \
            connection made in between, as the node saw it, and the client's steps timed alone \
            on the last message's frames and the receiver's stores.

            The node shares the process and its 2 cores with the client.
            """
    )

    @Option(help: "Conversations the receiver watches (the sender's included).") var contacts = 1000
    @Option(help: "Messages measured in each pacing (after the warm-up).") var messages = 200
    @Option(name: .customLong("warm-up"), help: "Messages sent and received first, not measured.") var warmUp = 5
    @Option(help: "History rows in each generated conversation.") var history = 10
    @Option(
        help: ArgumentHelp(
            "Where to make the profiles (default: the temporary directory).", valueName: "dir"))
    var directory: String?
    @Flag(help: "Print the result as JSON.") var json = false

    func run() async throws {
        guard contacts > 0, messages > 0, warmUp >= 0, history >= 0 else {
            throw CLIError("--contacts and --messages must be positive, --warm-up and --history not negative")
        }
        var configuration = ChatNodeBenchmarks.Configuration()
        configuration.conversations = contacts
        configuration.messages = messages
        configuration.warmUp = warmUp
        configuration.historyRows = history
        configuration.directory = directory.map { URL(fileURLWithPath: $0) }
        let report = try await ChatNodeBenchmarks.run(configuration)
        if json {
            try CommandIO.printJSON(report)
        } else {
            CommandIO.write(Self.markdown(report))
        }
    }

    static func markdown(_ report: ChatNodeReport) -> String {
        func ms(_ value: Double) -> String { "\(rounded(value, places: 2)) ms" }
        func µs(_ value: Double) -> String { "\(rounded(value, places: 1)) µs" }
        func row(_ name: String, _ figures: ChatNodeReport.Percentiles) -> String {
            "| \(name) | \(ms(figures.p50)) | \(ms(figures.p90)) | \(ms(figures.p99)) | \(ms(figures.max)) |"
        }
        func name(_ pacing: ChatNodeBenchmarks.Pacing) -> String {
            switch pacing {
            case .backToBack: "block mined as soon as the message is sent (back-to-back)"
            case .idleReceiver: "block mined once the receiver is idle"
            }
        }
        var figures: [String] = []
        var ratios: [String] = []
        var breakdowns: [String] = []
        for pacing in report.pacings {
            figures.append(
                row("**notification → message in history**, \(name(pacing.pacing))", pacing.notificationToHistory))
            figures.append(row("  mine() called → notification ready (the node)", pacing.blockToNotification))
            figures.append(row("  mine() called → message in history", pacing.blockToHistory))
            ratios.append(
                "| \(name(pacing.pacing)) | \(formatRatio(pacing.ratioP50)) | \(formatRatio(pacing.ratioP99)) | "
                    + "\(formatRatio(pacing.pingRatioP50)) | \(pacing.goalMet ? "yes" : "**no**") |")
            let calls = pacing.callsPerMessage.sorted { $0.key < $1.key }.map {
                "\($0.key) \(rounded($0.value, places: 2))"
            }
            let segments = pacing.segments.map {
                "| \($0.name) | \(µs($0.medianMicroseconds)) | \(µs($0.p90Microseconds)) | \(µs($0.p99Microseconds)) | "
                    + "\(µs($0.meanMicroseconds)) |"
            }
            breakdowns.append(
                """
                \(name(pacing.pacing)), \(pacing.messages) messages. Requests per message: \(calls.joined(separator: ", ")); \
                live sessions restarted while measuring: \(pacing.resubscriptions).

                | stretch | median | p90 | p99 | mean |
                |---|---:|---:|---:|---:|
                \(segments.joined(separator: "\n"))
                """)
        }
        let steps = report.steps.map { "| \($0.name) | \(µs($0.microseconds)) |" }
        return """
            ### Kaspa chat through a node: notification → history (\(report.conversations) conversations)

            Receiver: \(report.conversations) conversations, \(report.watchedAddresses) watched addresses, \
            \(report.historyRows) history rows (fixture made in \(rounded(report.fixtureSeconds, places: 2)) s); \
            \(report.warmUp) warm-up messages; the two pacings alternate.

            | | p50 | p90 | p99 | max |
            |---|---:|---:|---:|---:|
            \(figures.joined(separator: "\n"))
            | idle pacing: receiver still busy after the send (waited before mining) | \
            \(ms(report.receiverBusy.p50)) | \(ms(report.receiverBusy.p90)) | \(ms(report.receiverBusy.p99)) | \
            \(ms(report.receiverBusy.max)) |

            Baseline (same run, medians): KasiaCipher.open + history insert \(µs(report.baselineMicroseconds)); \
            for scale, a ping round trip to the node \(µs(report.pingMicroseconds)).

            | pacing | p50 ÷ open + insert | p99 ÷ open + insert | p50 ÷ ping | p99 < \(ms(report.goalMilliseconds)) |
            |---|---:|---:|---:|---|
            \(ratios.joined(separator: "\n"))

            #### Where the time goes (per message, from the node's frame log)

            \(breakdowns.joined(separator: "\n\n"))

            #### The client's steps, timed alone (medians)

            | step | time |
            |---|---:|
            \(steps.joined(separator: "\n"))

            """
    }
}
