import ArgumentParser
import Foundation
import TandemBasics
import TandemMessaging

extension ChatCommand {
    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "sync",
            abstract: "Fetch new handshakes, messages and payments from the relay and print what arrived.")

        @OptionGroup var options: ChatOptions
        @OptionGroup var timeLimit: WalkTimeLimitOption
        @Flag(name: .long, help: "Print one JSON object per item.") var json = false

        func run() async throws {
            let messenger = try options.messenger(walkDeadline: timeLimit.deadline)
            let line = ReadProgressLine(json: json)
            defer { line.end() }
            let arrived = try await chatCall { try await messenger.sync(progress: line.handler) }
            try printIncoming(arrived, json: json, names: messenger, clock: options.profile.clock)
            await reportEarlyStop(messenger)
        }
    }

    struct Listen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "listen",
            abstract: "Sync, then print each decrypted incoming message as it arrives (until interrupted).")

        @OptionGroup var options: ChatOptions
        @OptionGroup var stream: StreamTransportOptions
        @OptionGroup var notifying: NotifyOptions
        @Flag(name: .long, help: "Print JSON lines.") var json = false
        @Option(
            name: .long,
            help: ArgumentHelp(
                "Seconds between the syncs that notice a relay or node gone away (the live stream would hide it).",
                visibility: .hidden))
        var heartbeat = 15

        func validate() throws {
            guard (1...3600).contains(heartbeat) else { throw CLIError("--heartbeat \(heartbeat): expected 1 to 3600") }
        }

        func run() async throws {
            try await stream.withTransport { transport in
                let messenger = try options.messenger(streamTransport: transport)
                let clock = options.profile.clock
                // Nothing reachable at the start is bad input (one line, exit 1); later losses
                // are said on stderr and retried (issue 51 item 9).
                try printIncoming(
                    try await chatCall { try await messenger.sync() }, json: json, names: messenger, clock: clock)
                let place =
                    try messenger.isOnKaspa
                    ? "the Kaspa node" : "the relay at \(options.server.url(profile: options.profile.value))"
                CommandIO.writeError("tandem: connected to \(place)")
                var lost = false
                var printed = RecentKeys(capacity: 10_000)
                // Issue 48 item 3: what arrives from now on, not the backlog printed above.
                let notifier = notifying.enabled ? DesktopNotifier(bell: DesktopNotifier.ringTerminal) : nil
                for await update in messenger.updates(heartbeat: .seconds(heartbeat)) {
                    switch update {
                    case .online:
                        if lost { CommandIO.writeError("tandem: back on \(place)") }
                        lost = false
                    case .reconnecting(let reason):
                        if !lost { CommandIO.writeError("tandem: lost \(place) (\(reason)); trying again") }
                        lost = true
                    case .arrived(let message):
                        // The stream and the heartbeat's sync may both bring a row: print it once.
                        guard printed.insert("\(message.kind.rawValue) \(message.txID)") else { continue }
                        try printIncoming([message], json: json, names: messenger, clock: clock)
                        if let notifier, let notice = messenger.notice(for: message, preview: notifying.notifyPreview) {
                            notifier.notify(notice)
                        }
                    }
                }
            }
        }
    }

    struct History: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Show the stored conversation with ADDRESS, oldest first.")

        @OptionGroup var options: LocalChatOptions
        @Option(
            name: .long, help: ArgumentHelp("The peer's Kaspa address, or a contact's name.", valueName: "address|name")
        ) var with: String
        @Option(name: .long, help: "Messages per page (1–1000).") var limit = 50
        @Option(
            name: .long,
            help: ArgumentHelp("Only messages older than this cursor (from a previous page).", valueName: "cursor"))
        var before: String?
        @Flag(name: .long, help: "Print {messages, hasMore, before} as JSON.") var json = false

        func validate() throws {
            guard (1...1000).contains(limit) else { throw CLIError("--limit \(limit): expected 1 to 1000") }
        }

        func run() async throws {
            let named = try PeerArgument(with, option: "--with")
            let cursor = try before.map(HistoryCursor.parse)
            let messenger = try options.messenger()
            let peer = try named.resolve(in: messenger)
            let page = try await chatCall { try await messenger.history(with: peer, limit: limit, before: cursor) }
            let rows = page.rows.map(ChatMessageOutput.init)
            if json {
                try CommandIO.printJSON(
                    HistoryOutput(
                        messages: rows, hasMore: page.hasMore, before: page.boundary.map(HistoryCursor.text)))
            } else {
                for row in rows { CommandIO.write(row.line(clock: options.profile.clock) + "\n") }
                // Issue 51 item 9: a page that is not the whole history says how to read on.
                if page.hasMore, let boundary = page.boundary {
                    CommandIO.writeError(
                        "tandem: older messages: tandem chat history --with \(with) --before \(HistoryCursor.text(boundary))"
                    )
                }
            }
        }
    }

    struct Conversations: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "conversations",
            abstract: "List contacts with their last message, most recent first.")

        @OptionGroup var options: LocalChatOptions
        @Flag(name: .long, help: "Print a JSON array.") var json = false

        func run() async throws {
            let messenger = try options.messenger()
            let summaries = try await chatCall { try await messenger.conversations() }
            let rows = summaries.map(ConversationOutput.init)
            if json {
                try CommandIO.printJSON(rows)
            } else {
                for (row, summary) in zip(rows, summaries) {
                    CommandIO.write(row.line(name: summary.contact.displayName, clock: options.profile.clock) + "\n")
                }
            }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "restore",
            abstract: "Rebuild conversations and history on this device from the wallet key and the relay.")

        @OptionGroup var options: ChatOptions
        @OptionGroup var timeLimit: WalkTimeLimitOption
        @Flag(name: .long, help: "Print one JSON object per restored incoming item.") var json = false

        func run() async throws {
            let messenger = try options.messenger(walkDeadline: timeLimit.deadline)
            let line = ReadProgressLine(json: json)
            defer { line.end() }
            let restored = try await chatCall { try await messenger.restore(progress: line.handler) }
            await reportEarlyStop(messenger)
            let count = try await chatCall { try await messenger.conversations().count }
            if json {
                try printIncoming(restored, json: true, names: messenger, clock: options.profile.clock)
            } else {
                CommandIO.write("restored \(count) conversation(s), \(restored.count) incoming item(s)\n")
            }
        }
    }
}

/// One line on stderr when a sync read less of the chain than there is (issue 50 item 3): what it
/// read is kept, and the next sync goes on from there.
func reportEarlyStop(_ messenger: Messenger) async {
    guard let stop = await messenger.lastCatchUpStop else { return }
    CommandIO.writeError("tandem: \(stop); run `tandem chat sync` again to go on")
}

/// `history --json`: one page and the cursor for the next older page.
struct HistoryOutput: Encodable {
    let messages: [ChatMessageOutput]
    let hasMore: Bool
    let before: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(messages, forKey: .messages)
        try container.encode(hasMore, forKey: .hasMore)
        try container.encode(before, forKey: .before)
    }

    enum CodingKeys: String, CodingKey { case messages, hasMore, before }
}

/// One conversation of `conversations --json`.
struct ConversationOutput: Encodable {
    let address: String
    let alias: String
    let lastMessageAt: String?
    let lastMessage: ChatMessageOutput?
    /// Messages not read yet (issue 51 item 6).
    let unread: Int
    /// Whether the contact's notifications are muted.
    let muted: Bool
    /// The instant behind `lastMessageAt`, for the human line.
    private let activity: UnixMillis?

    init(_ summary: ConversationSummary) {
        address = summary.contact.address.description
        alias = summary.contact.alias
        unread = summary.unread
        muted = summary.contact.notificationsMuted
        activity = summary.lastMessage == nil && summary.contact.lastMessageAt == nil ? nil : summary.lastActivity
        lastMessageAt = activity?.iso8601
        lastMessage = summary.lastMessage.map(ChatMessageOutput.init)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(alias, forKey: .alias)
        try container.encode(lastMessageAt, forKey: .lastMessageAt)
        try container.encode(lastMessage, forKey: .lastMessage)
        try container.encode(unread, forKey: .unread)
        try container.encode(muted, forKey: .notificationsMuted)
        try container.encode(muted, forKey: .muted)
    }

    /// `notificationsMuted` as contacts name it; `muted` is kept for one release.
    enum CodingKeys: String, CodingKey {
        case address, alias, lastMessageAt, lastMessage, unread, notificationsMuted, muted
    }

    /// The human line: the contact's name (or the address's short form), the time, a preview.
    func line(name: String, clock: HumanTime) -> String {
        let preview = lastMessage.map { ": " + ($0.text ?? "[encrypted]") } ?? ""
        let marks = (unread > 0 ? " (\(unread))" : "") + (muted ? " [muted]" : "")
        let time = activity.map(clock.text) ?? "-"
        return "\(name)\(marks)  \(time)\(preview)"
    }
}

/// The most recent `capacity` keys, for printing each arrival once over a listen of any length.
struct RecentKeys {
    let capacity: Int
    private var keys = Set<String>()
    private var order: [String] = []
    private var oldest = 0

    init(capacity: Int) { self.capacity = capacity }

    /// Whether `key` is new; it is remembered, and the oldest forgotten past `capacity`.
    mutating func insert(_ key: String) -> Bool {
        guard keys.insert(key).inserted else { return false }
        if order.count < capacity {
            order.append(key)
        } else {
            keys.remove(order[oldest])
            order[oldest] = key
            oldest = (oldest + 1) % capacity
        }
        return true
    }
}
