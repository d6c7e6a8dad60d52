import ChatHistory
import ChatScreen
import ChatTimeline
import Contacts
import Foundation
import KaspaCrypto
import TandemClient
import TestSupport
import Testing

/// `tandem chat ui` in a real terminal: tmux runs the built binary against a real `tandem serve`,
/// `send-keys` types and `capture-pane` reads the screen (issue 16 "Tests").
@Suite(.serialized)
struct ChatUITmuxTests {
    /// A profile with a fresh wallet key, and the messenger of another (in-process) profile.
    struct Pair {
        let server: ServerProcess
        let uiProfile: Profile
        let uiAddress: KaspaAddress
        let bob: Messenger
        let directory: TemporaryDirectory

        func close() {
            _ = server.stop()
            directory.remove()
        }
    }

    static func pair() async throws -> Pair {
        let server = try ServerProcess(extraArguments: ["--no-rate-limit"])
        let directory = try TemporaryDirectory()
        let uiProfile = Profile(directory: directory.url.appendingPathComponent("ui"))
        let uiKey = try uiProfile.createWalletKey()
        let bobProfile = Profile(directory: directory.url.appendingPathComponent("bob"))
        _ = try bobProfile.createWalletKey()
        let bob = try Messenger(profile: bobProfile, server: try #require(URL(string: server.baseURL)))
        let uiAddress = KaspaAddress(publicKey: uiKey.xOnlyPublicKey)
        // Bob greets the UI's wallet, so each can write to the other.
        try await bob.startConversation(with: uiAddress)
        return Pair(server: server, uiProfile: uiProfile, uiAddress: uiAddress, bob: bob, directory: directory)
    }

    static func launch(_ pair: Pair, width: Int = 120, height: Int = 40) throws -> TmuxSession {
        try TmuxSession(
            command: [
                TandemProcess.binary.path, "chat", "ui", "--with", pair.bob.address.description, "--server",
                pair.server.baseURL, "--profile", pair.uiProfile.directory.path,
            ],
            width: width, height: height, environment: ["TERM": "screen", "NO_COLOR": "1"])
    }

    /// The message pane's rows (right of the list's border), trailing spaces trimmed.
    static func paneRows(_ screen: [String], height: Int) -> [String] {
        let body = screen.dropFirst().prefix(height - 4)
        return body.map { line in
            let parts = line.split(separator: "│", maxSplits: 1, omittingEmptySubsequences: false)
            let pane = parts.count == 2 ? String(parts[1]) : ""
            return String(pane.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// The seeded message numbers (`msg #N`) on the given rows, top to bottom.
    static func numbers(_ rows: [String]) -> [Int] {
        rows.compactMap { row in row.firstMatch(of: /msg #(\d+)/).flatMap { Int($0.1) } }
    }

    @Test(
        .enabled(
            if: TmuxSession.isEnabled,
            "set TANDEM_TMUX_TESTS=1 (and install tmux): in the full parallel suite, waiting for the tmux client blocks a cooperative thread (issue 16)"
        ))
    func messagesFlowBothWaysThroughTheScreen() async throws {
        let pair = try await Self.pair()
        defer { pair.close() }
        let tmux = try Self.launch(pair)
        defer { tmux.kill() }
        try await tmux.waitFor("the UI to come up online") { $0.joined().contains("● online") }

        // A message sent from the other profile appears without a key press
        try await pair.bob.send("hello from bob 👋", to: pair.uiAddress)
        try await tmux.waitFor("bob's message on screen") { $0.joined().contains("hello from bob 👋") }

        // A message typed in the UI reaches the other profile
        try tmux.type("hi bob, from the terminal 漢字")
        try tmux.press("Enter")
        try await tmux.waitFor("the sent mark") { $0.joined().contains("from the terminal 漢字 ✓") }
        let deadline = Date().addingTimeInterval(15)
        var received: [String] = []
        while !received.contains("hi bob, from the terminal 漢字"), Date() < deadline {
            received += try await pair.bob.sync().map(\.text)
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(received.contains("hi bob, from the terminal 漢字"))

        // Ctrl-C leaves and the shell prints the exit status after the terminal is restored
        try tmux.press("C-c")
        try await tmux.waitFor("exit status 0") { $0.joined().contains("[exit 0]") }
    }

    /// 5,000 stored messages with the peer, one minute apart, every seventh with wide characters.
    static func seed(_ pair: Pair) throws {
        let store = try pair.uiProfile.openChatHistory()
        let start: UInt64 = 1_795_651_200_000
        let rows = (0..<5_000).map { index in
            let blockTime = start + UInt64(index) * 60_000
            let text = index % 7 == 3 ? "msg #\(index) 漢字かな 😀 wide" : "msg #\(index)"
            return StoredMessage(
                id: MessageID(UUID()), conversation: ConversationID(pair.bob.address.description),
                txID: TxID("seed\(index)"), blockTime: blockTime, timestamp: Int64(blockTime), status: .sent,
                direction: .incoming, kind: .text, body: Data(text.utf8))
        }
        try store.save(contentsOf: rows)
    }

    @Test(
        .enabled(
            if: TmuxSession.isEnabled,
            "set TANDEM_TMUX_TESTS=1 (and install tmux): in the full parallel suite, waiting for the tmux client blocks a cooperative thread (issue 16)"
        ))
    func aLongConversationScrollsWithoutLosingThePlace() async throws {
        let pair = try await Self.pair()
        defer { pair.close() }
        try Self.seed(pair)
        let tmux = try Self.launch(pair)
        defer { tmux.kill() }
        var screen = try await tmux.waitFor("the newest message") { $0.joined().contains("msg #4999") }
        try await tmux.waitFor("online") { $0.joined().contains("● online") }

        // 40 PgUp presses: after each, the old top row is the new bottom row, although older
        // pages load in between
        for press in 0..<40 {
            let before = Self.paneRows(screen, height: 40)
            try tmux.press("PPage")
            screen = try await tmux.waitFor("page \(press)") { Self.paneRows($0, height: 40) != before }
            let after = Self.paneRows(screen, height: 40)
            #expect(after.last == before.first, "press \(press)")
        }
        let numbers = Self.numbers(Self.paneRows(screen, height: 40))
        #expect((numbers.min() ?? 5_000) < 3_700, "40 pages of 35 lines reach back past the first pages")

        // Wide characters keep the border in one column on every row
        for row in screen.dropFirst().prefix(36) {
            let border = try #require(row.firstIndex(of: "│"), "\(row)")
            #expect(DisplayWidth.columns(of: row[..<border]) == 30, "\(row)")
            #expect(DisplayWidth.columns(of: row) <= 120)
        }

        // A message arriving while scrolled up moves nothing and shows the marker
        let reading = Self.paneRows(screen, height: 40)
        try await pair.bob.send("arrived while reading", to: pair.uiAddress)
        screen = try await tmux.waitFor("the new-message marker") { $0.joined().contains("1 new ↓") }
        #expect(Self.paneRows(screen, height: 40) == reading)

        // Resizing to 80×24 and back keeps the anchor message visible
        let anchor = try #require(Self.numbers(reading).first)
        try tmux.resize(width: 80, height: 24)
        screen = try await tmux.waitFor("the 80×24 layout") { $0.count <= 25 && $0[0].count <= 80 }
        #expect(Self.numbers(screen).contains(anchor), "anchor msg #\(anchor) after shrinking")
        try tmux.resize(width: 120, height: 40)
        screen = try await tmux.waitFor("the 120×40 layout") { $0.count >= 40 }
        #expect(Self.numbers(screen).contains(anchor), "anchor msg #\(anchor) after growing back")

        // End jumps to the newest message
        try tmux.press("End")
        try await tmux.waitFor("the newest message after End") { $0.joined().contains("arrived while reading") }
    }

    @Test func withoutATerminalItSaysSoAndExitsOne() throws {
        let output = try TandemProcess.run(["chat", "ui", "--profile", TandemProcess.temporaryDirectory().path])
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines.count == 1)
        #expect(output.stderrText.contains("terminal"))
    }
}
