import ChatHistory
import ChatTimeline
import Foundation
import KaspaCrypto
import TandemBasics

/// A history's rows as KaChat's messages, and back (issue 48 item 2).
extension KaChatArchive {
    /// The archive of `snapshot`: one conversation per peer with rows that travel, in time order.
    static func make(
        _ snapshot: ChatHistorySnapshot, wallet: KaspaAddress, exportedAt: Date,
        alias: (ConversationID) -> String?, unread: (ConversationID) throws -> Int
    ) rethrows -> KaChatArchive {
        var byPeer: [ConversationID: [Message]] = [:]
        for row in snapshot.messages {
            byPeer[row.conversation, default: []].append(message(row, wallet: wallet))
        }
        let conversations = try byPeer.keys.sorted(by: { $0.rawValue < $1.rawValue }).map { peer in
            Conversation(
                conversationId: nil, contactAddress: peer.rawValue, contactAlias: alias(peer),
                unreadCount: try unread(peer), messages: byPeer[peer] ?? [])
        }
        return KaChatArchive(
            schemaVersion: schemaVersion, exportedAt: exportedAt, walletAddress: wallet.description,
            conversations: conversations)
    }

    private static func message(_ row: StoredMessage, wallet: KaspaAddress) -> Message {
        let outgoing = row.direction == .outgoing
        return Message(
            id: row.id.uuid, txId: row.txID?.rawValue ?? "",
            senderAddress: outgoing ? wallet.description : row.conversation.rawValue,
            receiverAddress: outgoing ? row.conversation.rawValue : wallet.description,
            content: KaChatContent.content(of: row),
            timestamp: Date(timeIntervalSince1970: Double(row.timestamp) / 1000),
            blockTime: row.blockTime, acceptingBlock: nil, isOutgoing: outgoing, messageType: messageType(row.kind),
            deliveryStatus: "sent")
    }

    private static func messageType(_ kind: MessageKind) -> String {
        switch kind {
        case .text: "contextual"
        case .payment: "payment"
        case .audio: "audio"
        case .handshake: "handshake"
        }
    }

    /// What an archive holds for this wallet.
    struct Imported {
        var snapshot = ChatHistorySnapshot()
        /// Each conversation's peer and the name the archive gives it.
        var peers: [(address: KaspaAddress, alias: String?)] = []
        var conversations = 0
        var messages = 0
        var skipped = 0
    }

    /// The archive's messages as this wallet's history rows. The archive must be this wallet's
    /// (its address, when it names one, and every message's own side); a message KaChat had not
    /// sent, or whose fields a history row cannot hold, is skipped and counted.
    func imported(wallet: KaspaAddress) throws(ChatBackupError) -> Imported {
        if let walletAddress {
            guard let named = try? KaspaAddress(walletAddress) else {
                throw .damaged("walletAddress \(walletAddress.prefix(80)) is not a Kaspa address")
            }
            try BackupWallet.check(named, is: wallet)
        }
        var result = Imported()
        for conversation in conversations {
            result.conversations += 1
            result.messages += conversation.messages.count
            guard let peer = try? KaspaAddress(conversation.contactAddress.trimmingCharacters(in: .whitespaces)),
                peer.network == wallet.network
            else {
                result.skipped += conversation.messages.count
                continue
            }
            let alias = conversation.contactAlias?.trimmingCharacters(in: .whitespacesAndNewlines)
            result.peers.append((peer, alias?.isEmpty == false ? alias : nil))
            var rows: [StoredMessage] = []
            for message in conversation.messages {
                guard let row = Self.row(message, peer: peer, wallet: wallet) else {
                    result.skipped += 1
                    continue
                }
                rows.append(row)
            }
            result.snapshot.messages += rows
            // KaChat keeps a count of unread messages: the newest one read is the message that
            // many places before the archive's newest incoming one.
            let incoming = rows.filter { $0.direction == .incoming && $0.kind != .handshake }.sorted { $0.key > $1.key }
            if conversation.unreadCount >= 0, conversation.unreadCount < incoming.count,
                let read = incoming[conversation.unreadCount].txID
            {
                result.snapshot.readThrough[ConversationID(peer.description)] = read
            }
        }
        return result
    }

    private static func row(_ message: Message, peer: KaspaAddress, wallet: KaspaAddress) -> StoredMessage? {
        let txID = message.txId.trimmingCharacters(in: .whitespaces)
        guard !txID.isEmpty, !txID.hasPrefix("pending_"),
            ["sent", "warning"].contains(message.deliveryStatus ?? "sent"),
            BackupWallet.same(message.isOutgoing ? message.senderAddress : message.receiverAddress, wallet),
            BackupWallet.same(message.isOutgoing ? message.receiverAddress : message.senderAddress, peer),
            let milliseconds = BackupTime.milliseconds(message.timestamp)
        else { return nil }
        let kind: MessageKind
        switch message.messageType {
        case "contextual": kind = .text
        case "payment": kind = .payment
        case "audio": kind = .audio
        case "handshake": kind = .handshake
        default: return nil
        }
        let (body, amount) = KaChatContent.body(message.content, kind: kind)
        // A payment is verified only when a chain block is seen to accept it (issue 50 item 7): a
        // file's word is not enough, so an imported payment waits for the chain.
        let accepted = kind != .payment && (!message.isOutgoing || message.acceptingBlock != nil)
        let row = StoredMessage(
            id: MessageID(message.id), conversation: ConversationID(peer.description), txID: TxID(txID),
            blockTime: message.blockTime, timestamp: milliseconds, status: accepted ? .confirmed : .sent,
            direction: message.isOutgoing ? .outgoing : .incoming, kind: kind, body: body, amountSompi: amount)
        return ChatSyncRecord.travels(row) ? row : nil
    }
}

/// KaChat's contents of rows that are not a plain text: its placeholders and payment lines.
enum KaChatContent {
    static let sentElsewhere = "📤 Sent via another device"
    static let encrypted = "[Encrypted message]"
    static let placeholders: Set<String> = [sentElsewhere, encrypted]

    /// The content KaChat shows for a row.
    static func content(of row: StoredMessage) -> String {
        let text = row.body.flatMap { String(data: $0, encoding: .utf8) }
        switch row.kind {
        case .payment:
            guard let amount = row.amountSompi else { return text ?? "[Payment]" }
            let line = (row.direction == .outgoing ? "Sent " : "Received ") + kas(amount) + " KAS"
            return text.map { $0.isEmpty ? line : line + " — " + $0 } ?? line
        case .handshake:
            return text ?? "[Request to communicate]"
        case .text, .audio:
            return text ?? (row.direction == .outgoing ? sentElsewhere : encrypted)
        }
    }

    /// A row's body and amount from KaChat's content: a placeholder is no text, and a payment
    /// line gives its amount and memo.
    static func body(_ content: String, kind: MessageKind) -> (Data?, UInt64?) {
        if placeholders.contains(content) { return (nil, nil) }
        if kind == .payment, let parsed = payment(content) { return (parsed.memo.map { Data($0.utf8) }, parsed.amount) }
        return (Data(content.utf8), nil)
    }

    /// "Sent 1,234.5 KAS — memo" or "Received 0.2 KAS": the amount in sompi and the memo.
    static func payment(_ content: String) -> (amount: UInt64, memo: String?)? {
        var rest = Substring(content)
        if rest.hasPrefix("Sent ") {
            rest = rest.dropFirst(5)
        } else if rest.hasPrefix("Received ") {
            rest = rest.dropFirst(9)
        } else {
            return nil
        }
        guard let end = rest.range(of: " KAS") else { return nil }
        guard let amount = KaspaAmount.sompi(fromKAS: rest[..<end.lowerBound].replacingOccurrences(of: ",", with: "")),
            amount <= KaspaAmount.maximumSompi
        else { return nil }
        let after = rest[end.upperBound...]
        if after.isEmpty { return (amount, nil) }
        guard after.hasPrefix(" — ") else { return nil }
        return (amount, String(after.dropFirst(3)))
    }

    /// KAS as KaChat writes it: thousands grouped with commas, up to 8 decimals, no trailing zeros.
    static func kas(_ sompi: UInt64) -> String {
        var whole = String(sompi / KaspaAmount.sompiPerKAS)
        var grouped = ""
        while whole.count > 3 {
            grouped = "," + whole.suffix(3) + grouped
            whole.removeLast(3)
        }
        grouped = whole + grouped
        let fraction = sompi % KaspaAmount.sompiPerKAS
        guard fraction > 0 else { return grouped }
        var digits = String(fraction)
        digits = String(repeating: "0", count: 8 - digits.count) + digits
        while digits.hasSuffix("0") { digits.removeLast() }
        return grouped + "." + digits
    }
}

/// Which wallet a backup is of.
enum BackupWallet {
    /// Whether `text` is the address of `wallet`'s key on its network.
    static func same(_ text: String, _ wallet: KaspaAddress) -> Bool {
        guard let address = try? KaspaAddress(text.trimmingCharacters(in: .whitespaces)) else { return false }
        return address == wallet
    }

    static func check(_ named: KaspaAddress, is wallet: KaspaAddress) throws(ChatBackupError) {
        guard named.network == wallet.network else {
            throw .wrongWallet(
                "the backup is of a wallet on \(named.network.rawValue), the profile chats on \(wallet.network.rawValue)"
            )
        }
        guard named == wallet else {
            throw .wrongWallet("the backup is of \(named), not of this profile's wallet \(wallet)")
        }
    }
}

/// Times of other apps' files as history milliseconds.
enum BackupTime {
    /// Milliseconds since 1970 of `date`, when a history row holds it (0 to 2^53).
    static func milliseconds(_ date: Date) -> Int64? {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite, value >= 0, value <= Double(1 << 53) else { return nil }
        return Int64(value)
    }
}
