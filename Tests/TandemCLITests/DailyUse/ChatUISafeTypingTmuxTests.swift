import Foundation
import TestSupport
import Testing

/// `chat ui` that is safe to type in (issue 51 item 4), in tmux against a real relay: letters
/// typed in the list filter it and never accept, decline or quit; Ctrl-A answers; `?` shows the
/// keys; the title names the network.
@Suite(.serialized)
struct ChatUISafeTypingTmuxTests {
    @Test(.enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func typingInTheListNeverActs() async throws {
        try await ChatUITmuxTests.withPair { pair in
            // Bob asks to chat; the UI opens on the list, where the request waits for an answer.
            _ = try await pair.bob.startConversation(with: pair.uiAddress)
            try await ChatUITmuxTests.withUI(pair, withBob: false) { tmux in
                try await tmux.waitFor("the request and the title") {
                    $0.joined().contains("wants to chat: ^A accept") && $0.joined().contains("● online")
                }
                #expect(try await tmux.capture()[0].contains("· relay"))

                // "hi dad" once accepted this request (and paid 0.2 KAS over Kaspa).
                try await tmux.type("hi dad q a d")
                let filtered = try await tmux.waitFor("the filter") { $0.joined().contains("/ hi dad q a d") }
                #expect(filtered.joined().contains("Nothing matches"))
                try await tmux.press("C-u")
                try await tmux.waitFor("the request again") { $0.joined().contains("wants to chat: ^A accept") }
                #expect(!(try await tmux.capture().joined().contains("[exit")), "still running")
                let bobSaw = try await pair.bob.sync()
                #expect(!bobSaw.contains { $0.kind == .handshake }, "nothing was answered")

                try await tmux.type("?")
                try await tmux.waitFor("the keys") { $0.joined().contains("✓✓ confirmed") }
                try await tmux.press("Escape")
                try await tmux.waitFor("the keys closed") { !$0.joined().contains("✓✓ confirmed") }

                // Ctrl-A answers (a relay costs nothing: no question) and opens the conversation.
                try await tmux.press("C-a")
                try await tmux.waitFor("the conversation") { $0.joined().contains("[Handshake sent]") }
                try await tmux.press("C-c")
                try await tmux.waitFor("exit status 0") { $0.joined().contains("[exit 0]") }
            }
            let answered = try await pair.bob.sync()
            #expect(answered.contains { $0.kind == .handshake }, "Ctrl-A sent the answer")
        }
    }
}
