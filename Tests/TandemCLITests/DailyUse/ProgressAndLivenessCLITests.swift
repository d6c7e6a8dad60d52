import Foundation
import TestSupport
import Testing

/// Progress and liveness (issue 51 item 9): a restore or sync shows how far it has read on a
/// terminal, then a summary line, and nothing of it in `--json` or in a pipe; `chat listen` says
/// when it is connected, when the relay is lost and when it is back.
@Suite(
    "Progress and liveness (issue 51)", .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
struct ProgressAndLivenessCLITests {
    static func screen(_ lines: [String]) -> String { lines.joined(separator: "\n") }

    @Test("a chain restore says what it walked on a terminal, and nothing of it in JSON or a pipe")
    func restoreShowsProgressOnATerminal() async throws {
        let node = try await SimNodeProcess.start()
        let alice = try await KaspaSpendingCLITests.connected(node, funded: 1_000_000_000)
        let bob = try await KaspaWalletCLITests.profile()
        let sent = try await TandemProcess.run(
            "chat", "send", "--to", bob.address, "hello", "--yes", "--profile", alice.dir)
        try #require(sent.status == 0, "\(sent.stderrText)")
        try await node.mine(3)
        let restore = [TandemProcess.binary.path, "chat", "restore", "--profile", alice.dir]

        try await KaspaSpendingCLITests.inTmux(restore) { tmux in
            let done = try await tmux.waitFor("the summary") { Self.screen($0).contains("[exit 0]") }
            let text = Self.screen(done)
            #expect(
                text.range(of: #"walked [0-9]+ blocks?: [0-9]+ Kasia rows? read"#, options: .regularExpression) != nil,
                "\(text)")
            #expect(text.contains("restored 1 conversation(s)"), "\(text)")
        }
        try await KaspaSpendingCLITests.inTmux(restore + ["--json"]) { tmux in
            let text = Self.screen(try await tmux.waitFor("the end") { Self.screen($0).contains("[exit 0]") })
            #expect(!text.contains("walked") && !text.contains("reading:"), "\(text)")
        }
        let piped = try await TandemProcess.run(Array(restore.dropFirst()))
        #expect(piped.status == 0 && piped.stderrText.isEmpty, "\(piped.stderrText)")
    }

    @Test("chat listen says connected, lost and back as the relay goes and returns")
    func listenSaysConnectedLostAndBack() async throws {
        let first = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        let port = first.port
        let profile = try TandemProcess.temporaryDirectory().path
        try #require(try await TandemProcess.run("keys", "new", "--profile", profile).status == 0)
        let listen = [
            TandemProcess.binary.path, "chat", "listen", "--server", first.baseURL, "--heartbeat", "1",
            "--profile", profile,
        ]
        try await KaspaSpendingCLITests.inTmux(listen) { tmux in
            try await tmux.waitFor("connected") { Self.screen($0).contains("tandem: connected to the relay at") }
            #expect(await first.stopped() == 0)
            try await tmux.waitFor("lost", seconds: 30) { Self.screen($0).contains("tandem: lost the relay at") }
            let second = try await ServerProcess.start(port: port, extraArguments: ["--no-rate-limit"])
            defer { second.stop() }
            let back = try await tmux.waitFor("back", seconds: 60) {
                Self.screen($0).contains("tandem: back on the relay at")
            }
            #expect(!Self.screen(back).contains("[exit"), "listen keeps running: \(Self.screen(back))")
        }
    }
}

/// `chat listen` with nothing to reach at the start: bad input, one line and exit 1, not a
/// retry loop (later losses are retried; the tmux suite above).
@Suite struct ListenStartCLITests {
    @Test func anUnreachableRelayAtTheStartIsOneLineAndExit1() async throws {
        let profile = try TandemProcess.temporaryDirectory().path
        try #require(try await TandemProcess.run("keys", "new", "--profile", profile).status == 0)
        let listen = try await TandemProcess.run(
            "chat", "listen", "--server", "http://127.0.0.1:9", "--profile", profile)
        #expect(listen.status == 1)
        #expect(listen.stderrLines.count == 1, "\(listen.stderrText)")
        #expect(listen.stderrText.contains("cannot reach the server at http://127.0.0.1:9"), "\(listen.stderrText)")
    }
}
