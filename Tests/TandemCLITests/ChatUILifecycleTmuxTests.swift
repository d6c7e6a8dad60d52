import ChatHistory
import ChatTimeline
import Foundation
import TandemProfile
import TandemWallet
import Testing

/// How `tandem chat ui` ends and idles, in tmux against a real `tandem serve` (issue 16 items 1
/// and 5): SIGTERM and a hang-up end it within seconds with the terminal restored and the
/// history kept, and a connected, quiet UI leaves the CPU alone (an idle-CPU check, run with the
/// benchmarks).
@Suite(.serialized)
struct ChatUILifecycleTmuxTests {
    static let canRun = TmuxSession.isAvailable && FileManager.default.fileExists(atPath: "/proc/self/stat")
    /// CPU seconds a quiet UI may use over ``idleSeconds``: its 40 ms key poll and the
    /// connection heartbeat's sync every few seconds, on a shared machine.
    static let idleBudget = 0.5
    static let idleSeconds = 5.0

    /// The `tandem` process in the pane: the shell's child (`env` execs it).
    static func uiProcess(_ tmux: TmuxSession) async throws -> pid_t {
        let shell = try #require(pid_t(try await tmux.display("#{pane_pid}")))
        return try #require(ProcessCPU.children(of: shell).first, "no child of the pane's shell")
    }

    /// Waits until the UI is online and shows Bob's `text`, sent live; its process id.
    static func showingLiveMessage(_ text: String, _ pair: ChatUITmuxTests.Pair, _ tmux: TmuxSession) async throws
        -> pid_t
    {
        try await tmux.waitFor("online") { $0.joined().contains("● online") }
        try await pair.bob.send(text, to: pair.uiAddress)
        try await tmux.waitFor("bob's message") { $0.joined().contains(text) }
        return try await uiProcess(tmux)
    }

    /// Whether Bob's `text` is stored in the UI profile's history file.
    static func stored(_ text: String, _ pair: ChatUITmuxTests.Pair) throws -> Bool {
        let store = try pair.uiProfile.openChatHistory()
        let page = try store.newestPage(in: ConversationID(pair.bob.address.description), limit: 50)
        return page.rows.contains { $0.body.map { String(decoding: $0, as: UTF8.self) } == text }
    }

    /// Waits up to `seconds` for `pid` to end; true when it did.
    static func ends(_ pid: pid_t, within seconds: Double) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while ProcessCPU.isRunning(pid) {
            guard Date() < deadline else { return false }
            try await Task.sleep(for: .milliseconds(50))
        }
        return true
    }

    @Test(.tags(.idleCPU), .enabled(if: canRun && IdleCPUChecks.enabled, "set \(IdleCPUChecks.variable)=1"))
    func aQuietUIIdles() async throws {
        try await ChatUITmuxTests.withPair { pair in
            try await ChatUITmuxTests.withUI(pair) { tmux in
                // Given a connected UI that has shown a live message
                let pid = try await Self.showingLiveMessage("before the quiet", pair, tmux)

                // Then five quiet seconds cost little CPU
                try await Task.sleep(for: .seconds(1))
                let start = try #require(ProcessCPU.seconds(pid))
                try await Task.sleep(for: .seconds(Self.idleSeconds))
                let used = try #require(ProcessCPU.seconds(pid)) - start
                #expect(used < Self.idleBudget, "idle chat ui used \(used) s of CPU in \(Self.idleSeconds) s")
            }
        }
    }

    @Test(.enabled(if: canRun))
    func sigtermRestoresTheTerminal() async throws {
        try await ChatUITmuxTests.withPair { pair in
            try await ChatUITmuxTests.withUI(pair) { tmux in
                // Given a connected UI that has shown a live message
                let pid = try await Self.showingLiveMessage("before the signal", pair, tmux)
                #expect(try await tmux.display("#{alternate_on}") == "1")

                // When SIGTERM arrives, it ends at once with status 0, out of the alternate
                // screen and with the cursor shown again
                _ = kill(pid, SIGTERM)
                try await tmux.waitFor("the exit status", seconds: 5) { $0.joined().contains("[exit ") }
                #expect(try await tmux.capture().joined().contains("[exit 0]"))
                #expect(try await Self.ends(pid, within: 5))
                #expect(try await tmux.display("#{alternate_on}") == "0")
                #expect(try await tmux.display("#{cursor_flag}") == "1")
            }
            // And the history file still holds the message
            #expect(try Self.stored("before the signal", pair))
        }
    }

    @Test(.enabled(if: canRun))
    func aHangUpEndsTheUIAndKeepsTheHistory() async throws {
        try await ChatUITmuxTests.withPair { pair in
            try await ChatUITmuxTests.withUI(pair) { tmux in
                // Given a connected UI that has shown a live message
                let pid = try await Self.showingLiveMessage("before the hang-up", pair, tmux)

                // When its terminal goes away (tmux closes the pane: SIGHUP and a dead tty)
                try await tmux.tmux(["kill-pane", "-t", tmux.target])

                // Then the process is gone within a few seconds
                #expect(try await Self.ends(pid, within: 5))
            }
            // And the history file still holds the message
            #expect(try Self.stored("before the hang-up", pair))
        }
    }
}
