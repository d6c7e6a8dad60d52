public import ChatHistory
import ChatTimeline
public import Foundation
import TandemBasics

/// The whole terminal chat client as a value (issue 16): the conversation list, the open
/// conversation's message pane, the composer and the status line. Keys go in through
/// ``handle(_:)``, the messaging service's results through ``apply(_:)``; ``render(width:height:)``
/// draws the state into an off-screen ``ScreenFrame``. No terminal, no network: the shell owns
/// both, which is what makes this testable and benchmarkable without a TTY.
public struct ChatScreen: Sendable {
    /// Where keys go.
    public enum Focus: Hashable, Sendable {
        case list
        case chat
        case prompt(Prompt)
    }

    /// A one-line question at the composer's place.
    public enum Prompt: Hashable, Sendable {
        /// Start a conversation: an address or a contact's name.
        case newConversation
        case rename(address: String)
        /// A yes/no question before an action that costs money or cannot be undone (issue 51
        /// item 4): `y` runs the actions and opens `opens`, anything else cancels.
        case confirm(question: String, actions: [ScreenAction], opens: String?)
    }

    /// The network the profile is on and, over Kaspa, the wallet's balance: the title shows them.
    public struct Account: Hashable, Sendable {
        /// `relay`, or a Kaspa network id such as `testnet-10`.
        public var network: String
        /// The balance as the title shows it (`9.73 KAS`); nil on a relay or before it is known.
        public var balance: String?
        public var isKaspa: Bool { network != "relay" }

        public init(network: String, balance: String?) {
            self.network = network
            self.balance = balance
        }
    }

    let store: ChatHistoryStore
    let timeZone: TimeZone
    /// This wallet's address, shown in the title.
    public let ownAddress: String
    public private(set) var conversations: [ConversationEntry] = []
    public internal(set) var selection = 0
    public internal(set) var focus: Focus = .list
    public private(set) var composer = Composer()
    /// The prompt's text while ``focus`` is a prompt.
    public internal(set) var promptText = Composer()
    public internal(set) var pane: MessagePane?
    public private(set) var connection: ConnectionState = .connecting
    /// A one-line error or confirmation, cleared by the next key.
    public internal(set) var notice: String?
    /// The list's search box (issue 51 item 4): letters typed in the list filter it.
    public internal(set) var filter = Composer()
    /// Whether the keys (and the receipts' legend) are shown over the message pane (`?`).
    public internal(set) var showsHelp = false
    /// The network and balance of the title; nil until the shell says.
    public private(set) var account: Account?
    /// The pane's geometry at the last render, so keys scroll by a page of the right size.
    var lastPaneSize = (width: 0, height: 0)

    public init(store: ChatHistoryStore, ownAddress: String, timeZone: TimeZone = .current) {
        self.store = store
        self.ownAddress = ownAddress
        self.timeZone = timeZone
    }

    /// The open conversation's address.
    public var openAddress: String? { pane?.conversation.rawValue }

    /// Opens (or switches to) the conversation with `address`; keys then go to the composer.
    public mutating func open(_ address: String) -> [ScreenAction] {
        if pane?.conversation.rawValue != address {
            let name = conversations.first { $0.address == address }?.name ?? Self.shortName(address)
            var newPane = MessagePane(
                store: store, conversation: ConversationID(address),
                format: MessageFormat(peerName: name, timeZone: timeZone))
            if lastPaneSize.width > 0 { newPane.resize(width: lastPaneSize.width, height: lastPaneSize.height) }
            newPane.open()
            pane = newPane
            composer.clear()
        }
        if let index = conversations.firstIndex(where: { $0.address == address }) {
            selection = index
            conversations[index].unread = 0
        }
        focus = .chat
        return [.markRead(address: address)]
    }

    /// `qr1234…wxyz`: an address short enough for the list (``AddressText/short(_:)``, the one
    /// short form every human line uses).
    public static func shortName(_ address: String) -> String { AddressText.short(address) }

    // MARK: Updates from the messaging service

    public mutating func apply(_ update: ScreenUpdate) {
        switch update {
        case .conversations(let entries):
            let selected = conversations.indices.contains(selection) ? conversations[selection].address : nil
            // The entries' unread counts come from the history's read marks and are the truth;
            // a live row only bumps a count until the next list arrives. The open conversation
            // is being read.
            conversations = entries.map { entry in
                var entry = entry
                if entry.address == openAddress { entry.unread = 0 }
                return entry
            }
            if let selected, let index = conversations.firstIndex(where: { $0.address == selected }) {
                selection = index
            } else {
                selection = min(selection, max(0, conversations.count - 1))
            }
        case .stored(let message, let live):
            if message.conversation.rawValue == openAddress {
                pane?.show(message, live: live)
            } else if live, let index = conversations.firstIndex(where: { $0.address == message.conversation.rawValue })
            {
                conversations[index].unread += 1
            }
        case .connection(let state):
            connection = state
        case .notice(let text):
            notice = text
        case .account(let account):
            self.account = account
        }
    }

    // MARK: Keys

    /// Applies one key and returns what the shell must do.
    public mutating func handle(_ key: ScreenKey) -> [ScreenAction] {
        notice = nil
        if key == .control("c") { return [.quit] }
        switch focus {
        case .list: return handleList(key)
        case .chat: return handleChat(key)
        case .prompt(let prompt): return handlePrompt(prompt, key)
        }
    }

    mutating func handleChat(_ key: ScreenKey) -> [ScreenAction] {
        let page = max(1, lastPaneSize.height - 1)
        switch key {
        case .escape, .tab: focus = .list
        case .enter:
            guard let address = openAddress, !composer.isBlank else { return [] }
            let text = composer.string
            composer.clear()
            pane?.jumpToBottom()
            return [.send(text: text, to: address)]
        case .pageUp: pane?.scroll(by: -page)
        case .pageDown: pane?.scroll(by: page)
        case .up: pane?.scroll(by: -1)
        case .down: pane?.scroll(by: 1)
        case .wheelUp: pane?.scroll(by: -3)
        case .wheelDown: pane?.scroll(by: 3)
        case .end: pane?.jumpToBottom()
        case .home: pane?.scroll(by: -Int.max / 4)
        case .control("r"):
            guard let id = pane?.newestFailedID else {
                notice = "no failed message to retry"
                return []
            }
            return [.retry(messageID: id.uuid.uuidString)]
        default: _ = composer.edit(key)
        }
        return []
    }

    mutating func handlePrompt(_ prompt: Prompt, _ key: ScreenKey) -> [ScreenAction] {
        if case .confirm(_, let actions, let opens) = prompt {
            focus = .list
            guard key == .character("y") || key == .character("Y") else {
                notice = "cancelled: nothing was done"
                return []
            }
            return actions + (opens.map { open($0) } ?? [])
        }
        switch key {
        case .escape:
            focus = .list
        case .enter:
            let text = promptText.string.trimmingCharacters(in: .whitespacesAndNewlines)
            focus = .list
            switch prompt {
            case .rename(let address): return [.rename(address: address, to: text)]
            case .confirm: return []
            case .newConversation:
                guard !text.isEmpty else { return [] }
                let lowered = text.lowercased()
                if let known = conversations.first(where: {
                    $0.address == text || $0.name.lowercased() == lowered
                }) {
                    return open(known.address)
                }
                return confirmingCost(
                    "Start a chat with \(Self.shortName(text))?", [.startConversation(address: text)], opens: text)
            }
        default:
            if key != .altEnter { _ = promptText.edit(key) }
        }
        return []
    }
}
