import ArgumentParser
import Foundation
import TandemMessaging
import TandemProfile

extension ChatCommand {
    /// `tandem chat ui`: the full-screen terminal client (issue 16).
    struct UI: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ui",
            abstract: "A full-screen chat client in the terminal: conversations, history, live messages.",
            discussion: """
                Keys: ↑/↓ and Enter pick a conversation, n starts one (address or contact name), \
                r renames, m mutes, a/d accept or decline a handshake. A new message from an \
                unmuted contact outside the open conversation is a desktop notification (without \
                its text unless --notify-preview), or the bell when no notification service runs. In a conversation Enter \
                sends, Alt+Enter adds a line, PgUp/PgDn/↑/↓ and the wheel scroll, End jumps to \
                the newest, Ctrl-R retries a failed message, Esc goes back, Ctrl-C quits. \
                Colours follow NO_COLOR. Needs a terminal on standard output.
                """
        )

        @OptionGroup var options: ChatOptions
        @OptionGroup var stream: StreamTransportOptions
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Open the conversation with this Kaspa address or contact name.", valueName: "address|name"))
        var with: String?
        @Flag(
            name: .long,
            help:
                "No notifications (default: a desktop notification, else the bell, on each new message from an unmuted contact outside the open conversation)."
        )
        var noNotify = false
        @Flag(name: .long, help: "Show the message's text in notifications (off: only who wrote).")
        var notifyPreview = false

        func run() async throws {
            // Nothing is written to a pipe or file: the UI needs a terminal (issue 16 item 6).
            guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
                throw CLIError("chat ui: standard input and output must be a terminal")
            }
            let named = try with.map { try PeerArgument($0, option: "--with") }
            let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
            try await stream.withTransport { transport in
                let messenger = try options.messenger(streamTransport: transport)
                let peer = try named?.resolve(in: messenger).description
                let store = try openingCall { try options.profile.value.openChatHistory() }
                var session = ChatUISession(messenger: messenger, store: store, initialPeer: peer, colors: !noColor)
                session.notifications = noNotify ? nil : ChatUINotifications(preview: notifyPreview)
                await session.run()
            }
        }
    }
}
