import ChatHistory
import ChatScreen
import ChatTimeline
import Contacts
import Foundation
import KaspaCrypto
import TandemBasics
import TandemMessaging
import TandemWallet

/// Runs `tandem chat ui`: the terminal thread (keys, frames) and the async side (the library's
/// updates, the actions the screen asks for), joined by a ``ChatUIMailbox`` and
/// an action stream (issue 16 items 1–5).
struct ChatUISession {
    let messenger: Messenger
    let store: ChatHistoryStore
    let initialPeer: String?
    let colors: Bool
    /// Our messages shown as sent, whose ✓✓ the next syncs may bring (issue 51 item 4).
    let awaitingReceipts = Locked(Set<MessageID>())
    /// Notifications of new messages (issue 48 item 3); nil with `--no-notify`.
    var notifications: ChatUINotifications?

    /// Until the user quits or a signal arrives; the terminal is restored on every path.
    func run() async {
        let mailbox = ChatUIMailbox()
        let (actions, actionSink) = AsyncStream.makeStream(of: ScreenAction.self)
        let signals = Self.watchSignals(mailbox)
        defer { for source in signals { source.cancel() } }
        var screen = ChatScreen(store: store, ownAddress: messenger.address.description)
        // The list before the first frame, so `--with` opens the pane under the contact's name
        // rather than a shortened address.
        if let summaries = try? await messenger.conversations() {
            screen.apply(.conversations(summaries.map(Self.entry)))
        }
        let notifier = notifications.map { _ in DesktopNotifier(bell: { mailbox.ringBell() }) }
        let thread = Thread { [screen, initialPeer, colors, notifications] in
            ChatUISession.terminalLoop(
                screen, initialPeer: initialPeer, colors: colors, mailbox: mailbox, open: notifications?.open
            ) { action in
                actionSink.yield(action)
            }
            actionSink.finish()
        }
        thread.stackSize = 4 << 20
        thread.start()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await live(mailbox, notifier: notifier) }
            await refreshConversations(mailbox)
            await postAccount(mailbox)
            for await action in actions { await perform(action, mailbox) }
            group.cancelAll()
        }
    }

    /// The terminal thread: read a key (40 ms at most), apply it and what the service posted,
    /// draw when something changed.
    ///
    /// The open conversation counts as read: a live row shown in it, and leaving the client,
    /// move its read mark (issue 16 item 5), so the unread counts a restart shows are true.
    static func terminalLoop(
        _ initial: ChatScreen, initialPeer: String?, colors: Bool, mailbox: ChatUIMailbox,
        open: Locked<String?>? = nil, perform: (ScreenAction) -> Void
    ) {
        var screen = initial
        let terminal = ChatTerminal(colors: colors)
        defer { terminal.stop() }
        defer { if let open = screen.openAddress { perform(.markRead(address: open)) } }
        if let initialPeer { for action in screen.open(initialPeer) { perform(action) } }
        var dirty = true
        while !mailbox.shouldStop {
            var seenLive = false
            for update in mailbox.drain() {
                screen.apply(update)
                if case .stored(let row, live: true) = update, row.conversation.rawValue == screen.openAddress {
                    seenLive = true
                }
                dirty = true
            }
            if seenLive, let open = screen.openAddress { perform(.markRead(address: open)) }
            if mailbox.takeBell() { terminal.beep() }
            open?.withLock { $0 = screen.openAddress }
            if dirty {
                let size = terminal.size
                terminal.draw(screen.render(width: size.width, height: size.height))
                dirty = false
            }
            switch terminal.read() {
            case .none: continue
            case .hangup: return
            case .resize: dirty = true
            case .key(let key):
                dirty = true
                for action in screen.handle(key) {
                    if action == .quit { return }
                    perform(action)
                }
            }
        }
    }

    /// SIGINT, SIGTERM and SIGHUP end the session through the terminal thread, which restores
    /// the terminal before the process exits.
    static func watchSignals(_ mailbox: ChatUIMailbox) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { mailbox.requestStop() }
            source.resume()
            return source
        }
    }

    // MARK: The async side

    /// Follows the library's updates (``Messenger/updates(heartbeat:longestWait:)``: the live
    /// stream, retried, and a sync every few seconds): arrivals to the screen, the connection to
    /// the status line.
    func live(_ mailbox: ChatUIMailbox, notifier: DesktopNotifier?) async {
        for await update in messenger.updates() {
            switch update {
            case .arrived(let message):
                post(message, mailbox)
                if let notifier, let notifications,
                    let notice = messenger.notice(
                        for: message, open: notifications.open.withLock { $0 }.flatMap { try? KaspaAddress($0) },
                        preview: notifications.preview)
                {
                    notifier.notify(notice)
                }
                await refreshConversations(mailbox)
                if message.kind == .payment { await postAccount(mailbox) }
            case .online:
                mailbox.post(.connection(.online))
                postReceipts(mailbox)
            case .reconnecting(let reason):
                mailbox.post(.connection(.reconnecting(reason: Self.short(reason))))
            }
        }
    }

    func post(_ message: IncomingMessage, _ mailbox: ChatUIMailbox) {
        switch message.kind {
        case .handshake:
            mailbox.post(.notice("\(messenger.displayName(for: message.sender)) wants to chat: Ctrl-A accepts"))
        case .reaction, .paymentVerified:
            // The target row again, its reactions or its verification changed: redrawn in place,
            // not a new arrival.
            guard let id = message.id, let row = try? store.message(id) else { return }
            mailbox.post(.stored(row, live: false))
        default:
            guard let id = message.id, let row = try? store.message(id) else { return }
            mailbox.post(.stored(row, live: row.direction == .incoming))
        }
    }

    func refreshConversations(_ mailbox: ChatUIMailbox) async {
        guard let summaries = try? await messenger.conversations() else { return }
        mailbox.post(.conversations(summaries.map(Self.entry)))
    }

    /// The title's network and, over Kaspa, balance (issue 51 item 4). Reading the balance asks
    /// the node for every address of the wallet, so it is read at start, after an action of
    /// ours and when a payment arrives, not on every arrival.
    func postAccount(_ mailbox: ChatUIMailbox) async {
        guard messenger.isOnKaspa else {
            return mailbox.post(.account(ChatScreen.Account(network: "relay", balance: nil)))
        }
        let network = (try? messenger.profile.kaspaNetworkSettings())?.network.description ?? "kaspa"
        let balance = try? await messenger.walletBalance()
        mailbox.post(
            .account(
                ChatScreen.Account(
                    network: network, balance: balance.map { KaspaAmount.kas(fromSompi: $0.balance) + " KAS" })))
    }

    /// Our sent messages a sync has confirmed since: redrawn with ✓✓ while the UI is open.
    func postReceipts(_ mailbox: ChatUIMailbox) {
        let waiting = awaitingReceipts.withLock { $0 }
        for id in waiting {
            guard let row = try? store.message(id) else { continue }
            guard row.status == .confirmed else { continue }
            awaitingReceipts.withLock { _ = $0.remove(id) }
            mailbox.post(.stored(row, live: false))
        }
    }

    static func entry(_ summary: ConversationSummary) -> ConversationEntry {
        let contact = summary.contact
        let address = contact.address.description
        let name = contact.displayName
        let preview = summary.lastMessage.map { row in
            let text = row.body.map { String(decoding: $0, as: UTF8.self) } ?? "[encrypted]"
            return row.direction == .outgoing ? "me: " + text : text
        }
        return ConversationEntry(
            address: address, name: name, preview: preview, lastActivity: summary.lastActivity.rawValue,
            unread: summary.unread, isMuted: contact.notificationsMuted,
            isPendingHandshake: summary.awaitsAnswer)
    }

    /// Runs one action of the screen against the messaging service.
    func perform(_ action: ScreenAction, _ mailbox: ChatUIMailbox) async {
        do {
            switch action {
            case .send(let text, let to):
                let peer = try KaspaAddress(to)
                // The composer's warning reaches the sender (seed 000 Phase 4); Enter sent it anyway.
                if let warning = try await messenger.composerWarning(for: peer) {
                    mailbox.post(.notice("warning: " + warning.explanation))
                }
                let row = try await messenger.queueMessage(text, to: peer)
                mailbox.post(.stored(row, live: false))
                await deliver(row.id, mailbox)
            case .retry(let text):
                guard let uuid = UUID(uuidString: text) else { return }
                // A failed row may have gone out by itself since (a resend, another process).
                if let row = try? store.message(MessageID(uuid)), row.txID != nil {
                    mailbox.post(.stored(row, live: false))
                    mailbox.post(.notice("that message went out by itself: nothing to retry"))
                    return
                }
                await deliver(MessageID(uuid), mailbox)
            case .startConversation(let address), .acceptConversation(let address):
                let receipt = try await messenger.startConversation(with: try KaspaAddress(address))
                // Our handshake's placeholder row shows in the pane that the action opened.
                if let row = try? store.message(txID: TxID(receipt.txID)) { mailbox.post(.stored(row, live: false)) }
            case .declineConversation(let address):
                try await messenger.declineConversation(with: try KaspaAddress(address))
            case .deleteConversation(let address):
                try await messenger.deleteContact(try KaspaAddress(address))
            case .rename(let address, let name):
                try await messenger.renameContact(try KaspaAddress(address), to: name)
            case .setMuted(let address, let muted):
                try await messenger.setMuted(try KaspaAddress(address), muted)
            case .markRead(let address):
                // A typed address that is not one yet has nothing to mark.
                guard let peer = try? KaspaAddress(address) else { return }
                try await messenger.markRead(peer)
            case .quit:
                return
            }
        } catch {
            mailbox.post(.notice(Self.short(error)))
        }
        await refreshConversations(mailbox)
        switch action {
        case .send, .retry, .startConversation, .acceptConversation: await postAccount(mailbox)  // these spend
        default: break
        }
    }

    /// Submits a stored outgoing row; the row (sent, or failed) goes back to the screen.
    func deliver(_ id: MessageID, _ mailbox: ChatUIMailbox) async {
        let queued = try? store.message(id)
        do {
            let sent = try await messenger.retry(id)
            for update in ScreenUpdate.delivered(sent, queued: queued) { mailbox.post(update) }
            if sent.status == .sent { awaitingReceipts.withLock { _ = $0.insert(sent.id) } }
        } catch {
            if let row = try? store.message(id) { mailbox.post(.stored(row, live: false)) }
            mailbox.post(.notice("not sent: " + Self.short(error)))
        }
    }

    static func short(_ error: any Error) -> String { short(String(describing: error)) }

    static func short(_ text: String) -> String {
        text.count > 70 ? String(text.prefix(69)) + "…" : text
    }
}

/// What `tandem chat ui` notifies with (issue 48 item 3): previews or not, and the conversation
/// open on screen, which the terminal thread keeps current and which never notifies.
struct ChatUINotifications: Sendable {
    let preview: Bool
    let open = Locked<String?>(nil)
}
