public import ChatHistory
import ChatTimeline
public import Foundation

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
    }

    let store: ChatHistoryStore
    let timeZone: TimeZone
    /// This wallet's address, shown in the title.
    public let ownAddress: String
    public private(set) var conversations: [ConversationEntry] = []
    public private(set) var selection = 0
    public private(set) var focus: Focus = .list
    public private(set) var composer = Composer()
    /// The prompt's text while ``focus`` is a prompt.
    public private(set) var promptText = Composer()
    public internal(set) var pane: MessagePane?
    public private(set) var connection: ConnectionState = .connecting
    /// A one-line error or confirmation, cleared by the next key.
    public private(set) var notice: String?
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

    /// `kaspa:qr…wxyz`: an address short enough for the list.
    public static func shortName(_ address: String) -> String {
        let body = address.split(separator: ":").last.map(String.init) ?? address
        guard body.count > 12 else { return address }
        return String(body.prefix(6)) + "…" + String(body.suffix(4))
    }

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

    mutating func handleList(_ key: ScreenKey) -> [ScreenAction] {
        let selected = conversations.indices.contains(selection) ? conversations[selection] : nil
        switch key {
        case .up: selection = max(0, selection - 1)
        case .down: selection = min(max(0, conversations.count - 1), selection + 1)
        case .enter, .right: if let selected { return open(selected.address) }
        case .tab: if pane != nil { focus = .chat }
        case .escape, .character("q"): return [.quit]
        case .character("n"):
            promptText.clear()
            focus = .prompt(.newConversation)
        case .character("r"):
            if let selected {
                promptText = Composer(selected.name)
                focus = .prompt(.rename(address: selected.address))
            }
        case .character("m"):
            if let selected { return [.setMuted(address: selected.address, muted: !selected.isMuted)] }
        case .character("a"):
            if let selected, selected.isPendingHandshake {
                return [.acceptConversation(address: selected.address)] + open(selected.address)
            }
        case .character("d"):
            if let selected, selected.isPendingHandshake { return [.declineConversation(address: selected.address)] }
        default: break
        }
        return []
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
        switch key {
        case .escape:
            focus = .list
        case .enter:
            let text = promptText.string.trimmingCharacters(in: .whitespacesAndNewlines)
            focus = .list
            switch prompt {
            case .rename(let address): return [.rename(address: address, to: text)]
            case .newConversation:
                guard !text.isEmpty else { return [] }
                let lowered = text.lowercased()
                if let known = conversations.first(where: {
                    $0.address == text || $0.name.lowercased() == lowered
                }) {
                    return open(known.address)
                }
                return [.startConversation(address: text)] + open(text)
            }
        default:
            if key != .altEnter { _ = promptText.edit(key) }
        }
        return []
    }
}
