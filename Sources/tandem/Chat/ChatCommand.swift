import ArgumentParser
import ChatHistory
import ChatTimeline
import Foundation
import KaspaCrypto
import KaspaNode
import TandemBasics
import TandemMessaging
import TandemNIOTransport
import TandemProfile

/// `tandem chat …`: end-to-end-encrypted Kasia messaging through a `tandem serve` relay
/// (issue 11 item 5).
struct ChatCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Message other wallets through a Tandem relay: handshake, send, sync, listen, history.",
        discussion: """
            Messages are sealed to the recipient's key and signed by the profile's wallet key \
            (`tandem keys new`); the relay stores only ciphertext. History and contacts stay in \
            the profile.
            """,
        subcommands: [
            Handshake.self, Send.self, Pay.self, Sync.self, Listen.self, History.self, Conversations.self, Restore.self,
            Delete.self, Export.self, Import.self, UI.self,
        ]
    )
}

/// `--server URL` and `--profile DIR`, shared by every chat command.
struct ChatOptions: ParsableArguments {
    /// The relay (a `tandem serve`); unused after `tandem kaspa connect`.
    @OptionGroup var server: ServerOption
    @OptionGroup var profile: ProfileOptions

    /// The messenger the profile is set up for (the library chooses: Kaspa after `tandem kaspa
    /// connect`, else the relay); `streamTransport` is given by the commands that follow the live
    /// stream (``StreamHTTPClient``), the others never open it. `walkDeadline` bounds each chain
    /// walk over Kaspa (`--time-limit`); the node client's default otherwise.
    func messenger(streamTransport: (any EventStreamTransport)? = nil, walkDeadline: Duration? = nil) throws
        -> Messenger
    {
        let profile = try profile.value
        let relay = try server.url(profile: profile, remember: true)
        return try Self.open(profile, relay: relay, streamTransport: streamTransport, walkDeadline: walkDeadline)
    }

    static func open(
        _ profile: Profile, relay: URL, streamTransport: (any EventStreamTransport)? = nil,
        walkDeadline: Duration? = nil
    ) throws -> Messenger {
        var network = MessagingNetwork(
            http: HTTPClientTransport(userAgent: "tandem/\(Tandem.configuration.version)"),
            webSocket: KaspaNodeAccess.transport)
        if let streamTransport { network.eventStream = streamTransport }
        return try openingCall {
            try profile.messenger(relay: relay, network: network, walkDeadline: walkDeadline)
        }
    }
}

/// `--profile` of the chat commands that read the profile alone (`history`, `conversations`):
/// they never reach a server, so they offer no `--server` (issue 51 item 2). One given anyway is
/// taken and ignored, so scripts that pass it to every chat command keep working.
struct LocalChatOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Not used: this command reads the profile only.", visibility: .hidden))
    var server: String?
    @OptionGroup var profile: ProfileOptions

    func messenger() throws -> Messenger {
        let profile = try profile.value
        let relay = try openingCall { try profile.rememberedServer() }
        return try ChatOptions.open(profile, relay: relay ?? ServerOption.parse(ServerOption.localDefault, source: ""))
    }
}

/// `--time-limit SECONDS` of the commands that read the Kaspa chain (issue 50 item 3).
struct WalkTimeLimitOption: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Over Kaspa: stop reading the chain after this many seconds (default 600). What was read is kept; the next run goes on from there.",
            valueName: "seconds"))
    var timeLimit: Int?

    func validate() throws {
        if let timeLimit, timeLimit <= 0 { throw ValidationError("--time-limit must be a positive number of seconds") }
    }

    var deadline: Duration? { timeLimit.map { .seconds($0) } }
}

/// Runs a messaging call, turning any failure into one CLI line (each error type's
/// description names what failed).
func chatCall<T>(_ body: () async throws -> T) async throws -> T {
    do { return try await body() } catch let error as CLIError { throw error } catch {
        throw CLIError(String(describing: error))
    }
}

/// ``chatCall(_:)`` for synchronous work (opening the profile's stores).
func openingCall<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let error as CLIError { throw error } catch {
        throw CLIError(String(describing: error))
    }
}

/// A history cursor on the command line: `BLOCKTIME:TIMESTAMP:UUID`, the exclusive key of the
/// oldest row already shown (what `history --json` prints as `before`; ``MessageKey/cursorText``).
enum HistoryCursor {
    static func text(_ key: MessageKey) -> String { key.cursorText }

    static func parse(_ text: String) throws -> MessageKey {
        guard let key = MessageKey(cursorText: text) else {
            throw CLIError("--before \(text): expected BLOCKTIME:TIMESTAMP:UUID as printed by `chat history`")
        }
        return key
    }
}

/// The JSON shape of a stored message (docs/cli-json.md). `transactionId` and `sentAt` are the
/// names of issue 51 item 6; `txID`, `time` and `blockTime` (milliseconds), the last release's,
/// are kept for one more.
struct ChatMessageOutput: Encodable {
    let id: String
    let txID: String?
    let contact: String
    let direction: String
    let status: String
    let kind: String
    /// Nil for our own messages sent from another device: sealed to the peer, unreadable here.
    let text: String?
    let blockTime: UInt64
    let time: String
    let cursor: String
    /// A payment's amount in sompi; null for other kinds (issue 43 item 3).
    let amountSompi: UInt64?
    /// The root of the payload that carried it (`kchat`, `ciph_msg`), null where unknown.
    let root: String?
    /// A payment's: whether a chain block accepted it (issue 50 item 7); null for other kinds.
    let verified: Bool?
    /// Emoji reactions on the message, one per reactor (issue 43 item 4).
    let reactions: [String]
    /// The composer's warning a forced `send` went past (seed 000 Phase 4); written only when set.
    var warning: String?
    /// What the line shows (``StoredMessage/displayText``); not written in JSON.
    private let shown: String

    init(_ message: StoredMessage) {
        id = message.id.uuid.uuidString
        txID = message.txID?.rawValue
        contact = message.conversation.rawValue
        direction = message.direction.rawValue
        status = message.status.rawValue
        kind = message.kind.rawValue
        text = message.body.map { String(decoding: $0, as: UTF8.self) }
        blockTime = message.blockTime
        time = UnixMillis(Int64(clamping: message.blockTime)).iso8601
        cursor = HistoryCursor.text(message.key)
        amountSompi = message.amountSompi
        root = message.root
        verified = message.kind == .payment ? message.isVerifiedPayment : nil
        reactions = message.reactions
        shown = message.displayText
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(txID, forKey: .transactionId)
        try container.encode(time, forKey: .sentAt)
        try container.encode(txID, forKey: .txID)
        try container.encode(contact, forKey: .contact)
        try container.encode(direction, forKey: .direction)
        try container.encode(status, forKey: .status)
        try container.encode(kind, forKey: .kind)
        try container.encode(text, forKey: .text)
        try container.encode(blockTime, forKey: .blockTime)
        try container.encode(time, forKey: .time)
        try container.encode(cursor, forKey: .cursor)
        try container.encode(amountSompi, forKey: .amountSompi)
        try container.encode(root, forKey: .root)
        try container.encode(verified, forKey: .verified)
        try container.encode(reactions, forKey: .reactions)
        try container.encodeIfPresent(warning, forKey: .warning)
    }

    enum CodingKeys: String, CodingKey {
        case id, transactionId, sentAt, contact, direction, status, kind, text, cursor, amountSompi, root, verified
        case reactions, warning, txID, time, blockTime
    }

    /// One human-readable line, its time as `clock` shows times.
    func line(clock: HumanTime) -> String {
        let arrow = direction == MessageDirection.outgoing.rawValue ? "→" : "←"
        let flag = status == "failed" || status == "pending" ? " [\(status)]" : ""
        return "\(clock.text(UnixMillis(Int64(clamping: blockTime)))) \(arrow) \(shown)\(flag)"
    }
}

/// The JSON shape of something `listen` and `sync` deliver (docs/cli-json.md): every member
/// written, null where it does not apply; `txID`, `time` and `blockTime` kept for one release
/// beside `transactionId` and `sentAt`.
struct IncomingOutput: Encodable {
    let kind: String
    let id: String?
    let txID: String
    let from: String
    let text: String
    let blockTime: UInt64
    let time: String
    let amountSompi: UInt64?
    let channel: String?
    /// A payment's: whether a chain block accepted it (issue 50 item 7).
    let verified: Bool?

    init(_ message: IncomingMessage) {
        kind = message.kind.rawValue
        id = message.id?.uuid.uuidString
        txID = message.txID
        from = message.sender.description
        text = message.text
        blockTime = message.blockTime
        time = UnixMillis(Int64(clamping: message.blockTime)).iso8601
        amountSompi = message.amountSompi
        channel = message.channel
        verified = message.verified
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(id, forKey: .id)
        try container.encode(txID, forKey: .transactionId)
        try container.encode(from, forKey: .from)
        try container.encode(text, forKey: .text)
        try container.encode(time, forKey: .sentAt)
        try container.encode(amountSompi, forKey: .amountSompi)
        try container.encode(channel, forKey: .channel)
        try container.encode(verified, forKey: .verified)
        try container.encode(txID, forKey: .txID)
        try container.encode(time, forKey: .time)
        try container.encode(blockTime, forKey: .blockTime)
    }

    enum CodingKeys: String, CodingKey {
        case kind, id, transactionId, from, text, sentAt, amountSompi, channel, verified, txID, time, blockTime
    }

    private var amount: String { "\(KaspaAmount.kas(fromSompi: amountSompi ?? 0)) KAS" }

    /// The human line, calling the sender `from` (a name, or the address's short form), its time
    /// as `clock` shows times.
    func line(from: String, clock: HumanTime) -> String {
        let time = clock.text(UnixMillis(Int64(clamping: blockTime)))
        return switch kind {
        case IncomingMessage.Kind.handshake.rawValue: "\(time) \(from) wants to chat (handshake)"
        case IncomingMessage.Kind.payment.rawValue:
            verified == true
                ? "\(time) \(from) paid \(amount): \(text)"
                : "\(time) \(from) sent a payment of \(amount) (unverified): \(text)"
        case IncomingMessage.Kind.paymentVerified.rawValue: "\(time) \(from)'s payment of \(amount) is verified"
        case IncomingMessage.Kind.broadcast.rawValue: "\(time) #\(channel ?? "") \(from): \(text)"
        case IncomingMessage.Kind.reaction.rawValue:
            text.isEmpty ? "\(time) \(from) took back a reaction" : "\(time) \(from) reacted \(text)"
        default: "\(time) \(from): \(text)"
        }
    }
}

/// Prints what arrived, one line or one JSON object per item; a line names the sender as the
/// contacts do (``Messenger/displayName(for:)``), JSON by the whole address.
func printIncoming(_ messages: [IncomingMessage], json: Bool, names: Messenger, clock: HumanTime) throws {
    var known: [KaspaAddress: String] = [:]  // one contact lookup per sender, however many rows
    for message in messages {
        let output = IncomingOutput(message)
        if json {
            try CommandIO.printJSON(output)
        } else {
            let name = known[message.sender] ?? names.displayName(for: message.sender)
            known[message.sender] = name
            CommandIO.write(output.line(from: name, clock: clock) + "\n")
        }
    }
}

/// `--to` / `--with`: a Kaspa address, or the name of a contact (issue 51 item 5). Text with a
/// `:` is an address and is checked before anything is opened; other text is a name, looked up
/// in the profile's contacts once the messenger is open.
struct PeerArgument {
    let text: String
    let option: String
    /// The address, when `text` is one.
    let address: KaspaAddress?

    init(_ text: String, option: String) throws {
        self.text = text
        self.option = option
        address = text.contains(":") ? try parseAddress(text, option: option) : nil
    }

    /// The peer: the address given, else the contact named.
    func resolve(in messenger: Messenger) throws -> KaspaAddress {
        if let address { return address }
        do { return try messenger.peer(text) } catch { throw CLIError("\(option) \(error)") }
    }
}
