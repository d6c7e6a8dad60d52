import ChatHistory
import ChatScreen
import ChatTimeline
import Contacts
import Foundation
import KaspaCrypto
import TandemMessaging
import TandemProfile
import TandemWallet
import TestSupport
import Testing

/// `tandem chat ui` in a real terminal: tmux runs the built binary against a real `tandem serve`,
/// `send-keys` types and `capture-pane` reads the screen (issue 16 "Tests").
/// `tandem chat ui` in a real terminal: tmux runs the built binary against a real `tandem serve`,
/// `send-keys` types and `capture-pane` reads the screen (issue 16 "Tests"). Every child (the
/// server, each tmux client) is awaited without blocking a thread, so the suite runs with the
/// rest of the CLI tests.
@Suite(.serialized)
struct ChatUITmuxTests {
    /// A profile with a fresh wallet key, and the messenger of another (in-process) profile.
    struct Pair {
        let server: ServerProcess
        let uiProfile: Profile
        let uiAddress: KaspaAddress
        let bob: Messenger
        let directory: TemporaryDirectory

        func close() async {
            _ = await server.stopped()
            directory.remove()
        }

        /// The UI's profile reads Bob's handshake and names him, as a person would have done
        /// in an earlier session.
        func nameBob(_ name: String) async throws {
            let messenger = try Messenger(profile: uiProfile, server: try #require(URL(string: server.baseURL)))
            _ = try await messenger.sync()
            try await messenger.renameContact(bob.address, to: name)
        }
    }

    /// Runs `body` with a fresh server and pair, and stops the server however `body` ends.
    static func withPair(_ body: (Pair) async throws -> Void) async throws {
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        let pair: Pair
        do {
            let directory = try TemporaryDirectory()
            let uiProfile = Profile(directory: directory.url.appendingPathComponent("ui"))
            let uiKey = try uiProfile.createWalletKey()
            let bobProfile = Profile(directory: directory.url.appendingPathComponent("bob"))
            _ = try bobProfile.createWalletKey()
            let bob = try Messenger(profile: bobProfile, server: try #require(URL(string: server.baseURL)))
            pair = Pair(
                server: server, uiProfile: uiProfile, uiAddress: KaspaAddress(publicKey: uiKey.xOnlyPublicKey),
                bob: bob, directory: directory)
        } catch {
            _ = await server.stopped()
            throw error
        }
        do {
            // Bob greets the UI's wallet, so each can write to the other.
            try await pair.bob.startConversation(with: pair.uiAddress)
            try await body(pair)
        } catch {
            await pair.close()
            throw error
        }
        await pair.close()
    }

    /// Runs `body` with `tandem chat ui` in a tmux window (opening the conversation with Bob
    /// unless `withBob` is false), and ends the tmux server however `body` ends.
    static func withUI(
        _ pair: Pair, withBob: Bool = true, width: Int = 120, height: Int = 40,
        _ body: (TmuxSession) async throws -> Void
    ) async throws {
        let tmux = try await TmuxSession(
            command: [TandemProcess.binary.path, "chat", "ui"]
                + (withBob ? ["--with", pair.bob.address.description] : [])
                + ["--server", pair.server.baseURL, "--profile", pair.uiProfile.directory.path],
            width: width, height: height, environment: ["TERM": "screen", "NO_COLOR": "1"])
        do { try await body(tmux) } catch {
            await tmux.kill()
            throw error
        }
        await tmux.kill()
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

    /// Whether `screen` is the program's frame at this size: the title row spans the width and
    /// the key help sits on the last row (tmux shows the old frame cropped or padded until the
    /// program redraws).
    static func isFrame(_ screen: [String], width: Int, height: Int) -> Bool {
        guard screen.count >= height, screen.count <= height + 1 else { return false }
        return screen[0].hasPrefix(" Tandem chat") && screen[0].hasSuffix("● online")
            && (width - 2...width).contains(DisplayWidth.columns(of: screen[0]))
            && screen[height - 1].contains("Enter send")
    }

    /// The seeded message numbers (`msg #N`) on the given rows, top to bottom.
    static func numbers(_ rows: [String]) -> [Int] {
        rows.compactMap { row in row.firstMatch(of: /msg #(\d+)/).flatMap { Int($0.1) } }
    }

    @Test func messagesFlowBothWaysThroughTheScreen() async throws {
        try await Self.withPair { pair in
            try await pair.nameBob("Bobby")
            try await Self.withUI(pair) { tmux in
                try await tmux.waitFor("the UI to come up online") { $0.joined().contains("● online") }

                // A message sent from the other profile appears without a key press, under the
                // contact's name: `--with` opened the pane after the contacts were loaded
                try await pair.bob.send("hello from bob 👋", to: pair.uiAddress)
                try await tmux.waitFor("bob's message on screen, by name") {
                    $0.joined().contains("Bobby: hello from bob 👋")
                }

                // A message typed in the UI reaches the other profile
                try await tmux.type("hi bob, from the terminal 漢字")
                try await tmux.press("Enter")
                try await tmux.waitFor("the sent mark") { $0.joined().contains("from the terminal 漢字 ✓") }
                // The relay's copy, read back by the next sync, confirms it while the UI is open
                // (issue 51 item 4).
                try await tmux.waitFor("the confirmed mark") { $0.joined().contains("from the terminal 漢字 ✓✓") }
                let deadline = Date().addingTimeInterval(15)
                var received: [String] = []
                while !received.contains("hi bob, from the terminal 漢字"), Date() < deadline {
                    received += try await pair.bob.sync().map(\.text)
                    try await Task.sleep(for: .milliseconds(50))
                }
                #expect(received.contains("hi bob, from the terminal 漢字"))

                // Ctrl-C leaves and the shell prints the exit status after the terminal is
                // restored
                try await tmux.press("C-c")
                try await tmux.waitFor("exit status 0") { $0.joined().contains("[exit 0]") }
            }
        }
    }

    @Test func unreadCountsSurviveARestart() async throws {
        try await Self.withPair { pair in
            try await pair.nameBob("Bobby")
            try await pair.bob.send("one", to: pair.uiAddress)
            try await pair.bob.send("two", to: pair.uiAddress)
            // Two unread on the list; opening the conversation reads them
            try await Self.withUI(pair, withBob: false) { tmux in
                try await tmux.waitFor("two unread, and Bob's handshake to answer") {
                    $0.joined().contains("Bobby (2)") && $0.joined().contains("wants to chat: ^A accept")
                }
                try await tmux.press("Enter")
                try await tmux.waitFor("the conversation, read") {
                    $0.joined().contains("Bobby: two") && !$0.joined().contains("Bobby (")
                }
                try await tmux.press("C-c")
                try await tmux.waitFor("exit status 0") { $0.joined().contains("[exit 0]") }
            }
            // One more arrives while the client is closed: a new client counts only that one
            try await pair.bob.send("three", to: pair.uiAddress)
            try await Self.withUI(pair, withBob: false) { tmux in
                try await tmux.waitFor("one unread after the restart") { $0.joined().contains("Bobby (1)") }
                try await tmux.waitFor("online") { $0.joined().contains("● online") }
                #expect(try await tmux.capture().joined().contains("Bobby (1)"))
            }
        }
    }

    /// 5,000 stored messages with the peer, one minute apart up to a minute ago, every seventh
    /// with wide characters.
    static func seed(_ pair: Pair) throws {
        let store = try pair.uiProfile.openChatHistory()
        let now = UInt64(Date().timeIntervalSince1970 * 1000)
        let start = now - now % 60_000 - 5_001 * 60_000
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

    @Test func aLongConversationScrollsWithoutLosingThePlace() async throws {
        try await Self.withPair { pair in
            try Self.seed(pair)
            try await Self.withUI(pair) { tmux in try await Self.scrollResizeAndReturn(pair, tmux) }
        }
    }

    /// 40 pages up through 5,000 messages, a live arrival while scrolled up, a resize to 80×24
    /// and back, and End.
    static func scrollResizeAndReturn(_ pair: Pair, _ tmux: TmuxSession) async throws {
        var screen = try await tmux.waitFor("the newest message") { $0.joined().contains("msg #4999") }
        try await tmux.waitFor("online") { $0.joined().contains("● online") }
        screen = try await tmux.capture()

        // 40 PgUp presses: after each, the old top row is the new bottom row, although older
        // pages load in between. The screen must settle there (a loaded machine can show a
        // frame of a redraw in between for longer than `waitFor`'s 20 ms of stability); one
        // that never does fails the wait.
        for press in 0..<40 {
            let before = Self.paneRows(screen, height: 40)
            try await tmux.press("PPage")
            screen = try await tmux.waitFor("page \(press): the old top row at the bottom") {
                let rows = Self.paneRows($0, height: 40)
                return rows != before && rows.last == before.first
            }
        }
        let numbers = Self.numbers(Self.paneRows(screen, height: 40))
        #expect((numbers.min() ?? 5_000) < 3_700, "40 pages of 35 lines reach back past the first pages")

        // Wide characters keep the border in one column on every row
        for row in screen.dropFirst().prefix(36) {
            let border = try #require(row.firstIndex(of: "│"), "\(row)")
            #expect(DisplayWidth.columns(of: row[..<border]) == ChatScreen.listWidth(for: 120), "\(row)")
            #expect(DisplayWidth.columns(of: row) <= 120)
        }

        // A message arriving while scrolled up moves nothing and shows the marker
        let reading = Self.paneRows(screen, height: 40)
        try await pair.bob.send("arrived while reading", to: pair.uiAddress)
        screen = try await tmux.waitFor("the new-message marker") { $0.joined().contains("1 new ↓") }
        #expect(Self.paneRows(screen, height: 40) == reading)

        // Resizing to 80×24 and back keeps the anchor message visible
        let anchor = try #require(Self.numbers(reading).first)
        try await tmux.resize(width: 80, height: 24)
        screen = try await tmux.waitFor("the 80×24 layout") { Self.isFrame($0, width: 80, height: 24) }
        #expect(Self.numbers(screen).contains(anchor), "anchor msg #\(anchor) after shrinking")
        try await tmux.resize(width: 120, height: 40)
        screen = try await tmux.waitFor("the 120×40 layout") { Self.isFrame($0, width: 120, height: 40) }
        #expect(Self.numbers(screen).contains(anchor), "anchor msg #\(anchor) after growing back")

        // End jumps to the newest message
        try await tmux.press("End")
        try await tmux.waitFor("the newest message after End") { $0.joined().contains("arrived while reading") }
    }

    @Test func withoutATerminalItSaysSoAndExitsOne() async throws {
        let output = try await TandemProcess.run(["chat", "ui", "--profile", TandemProcess.temporaryDirectory().path])
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines.count == 1)
        #expect(output.stderrText.contains("terminal"))
    }
}
