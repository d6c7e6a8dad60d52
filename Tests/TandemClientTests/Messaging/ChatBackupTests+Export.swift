import ChatHistory
import ChatTimeline
import Crypto
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemBasics
import TandemMessaging
import TandemProfile
import TestSupport
import Testing

/// KaChat's `ChatMessage` and archive as its Codable decoder reads them (`.iso8601` dates), written
/// from its published source: Tandem's export must decode with exactly this.
private struct KaChatReader: Decodable {
    struct Conversation: Decodable {
        var conversationId: UUID?
        var contactAddress: String
        var contactAlias: String?
        var unreadCount: Int
        var messages: [Message]
    }

    struct Message: Decodable {
        var id: UUID
        var txId: String
        var senderAddress: String
        var receiverAddress: String
        var content: String
        var timestamp: Date
        var blockTime: UInt64
        var acceptingBlock: String?
        var isOutgoing: Bool
        var messageType: String
        var deliveryStatus: String?
    }

    var schemaVersion: Int
    var exportedAt: Date
    var walletAddress: String?
    var conversations: [Conversation]
}

extension ChatBackupTests {
    /// Anna's history with Bob: a handshake, texts both ways, her own text known only as sent from
    /// another device, a payment, and two rows that must never leave: pending and failed.
    static func fill(_ messenger: Messenger, bob: KaspaAddress) async throws {
        let history = try messenger.profile.openChatHistory()
        let peer = ConversationID(bob.description)
        func row(
            _ n: Int, _ direction: MessageDirection, _ text: String?, kind: MessageKind = .text,
            status: DeliveryStatus = .confirmed, amount: UInt64? = nil
        ) -> StoredMessage {
            StoredMessage(
                id: MessageID(bytes: Array(SHA256.hash(data: Array("row \(n)".utf8)).prefix(16)))!, conversation: peer,
                txID: status == .pending ? nil : TxID(tx(n)), blockTime: 1_790_000_000_000 + UInt64(n) * 60_000,
                timestamp: 1_790_000_000_000 + Int64(n) * 60_000 + 250, status: status, direction: direction,
                kind: kind, body: text.map { Data($0.utf8) }, amountSompi: amount)
        }
        try history.save(contentsOf: [
            row(1, .outgoing, "[Request to communicate]", kind: .handshake), row(2, .incoming, "hi Anna"),
            row(3, .outgoing, "hello Bob", status: .sent), row(4, .outgoing, nil),
            row(5, .outgoing, "lunch", kind: .payment, amount: 150_000_000), row(6, .incoming, "thanks"),
            row(7, .incoming, "see you"), row(8, .outgoing, "not yet sent", status: .pending),
            row(9, .outgoing, "refused", status: .failed),
        ])
        try await messenger.addContact(bob, alias: "Bob")
        try history.react(target: TxID(tx(3)), reactor: bob.description, emoji: "👍", txID: TxID(tx(20)), blockTime: 5)
        try await messenger.markRead(bob)
        try history.save(
            StoredMessage(
                id: MessageID(bytes: [UInt8](repeating: 10, count: 16))!, conversation: peer, txID: TxID(tx(10)),
                blockTime: 1_790_000_900_000, timestamp: 1_790_000_900_000, status: .confirmed, direction: .incoming,
                kind: .text, body: Data("one more".utf8)))
    }

    @Test("Tandem's kachat export opens with the spec's key and reads as KaChat's archive")
    func kachatExportReadsAsKaChat() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let anna = try Self.messenger(scratch, "anna", key: "anna")
        let bob = try Self.address("bob")
        try await Self.fill(anna, bob: bob)
        let (file, report) = try await anna.exportChatBackup(format: .kachat)
        #expect(report.messages == 8 && report.conversations == 1)

        // The envelope: exactly the spec's five members.
        let envelope = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        #expect(Set(envelope.keys) == ["kachatEncryptedBackup", "cipher", "nonce", "ciphertext", "walletHint"])
        #expect(envelope["kachatEncryptedBackup"] as? Int == 1 && envelope["cipher"] as? String == "aes-256-gcm")
        #expect(
            envelope["walletHint"] as? String
                == Hex.encode(SHA256.hash(data: Array(anna.address.description.utf8)).prefix(8)))
        let nonce = try #require(Data(base64Encoded: envelope["nonce"] as? String ?? ""))
        #expect(nonce.count == 12)
        let plaintext = try Self.kachatPlaintext(of: file, key: try Self.key("anna"))

        // KaChat's decoder reads it: ISO-8601 dates in whole seconds, its member names and values.
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let archive = try decoder.decode(KaChatReader.self, from: plaintext)
        #expect(archive.schemaVersion == 1 && archive.walletAddress == anna.address.description)
        let conversation = try #require(archive.conversations.first)
        #expect(archive.conversations.count == 1 && conversation.contactAddress == bob.description)
        #expect(conversation.contactAlias == "Bob" && conversation.unreadCount == 1)
        let messages = conversation.messages
        #expect(messages.map(\.txId) == [1, 2, 3, 4, 5, 6, 7, 10].map(Self.tx), "no pending or failed row")
        #expect(
            messages.map(\.messageType) == [
                "handshake", "contextual", "contextual", "contextual", "payment", "contextual", "contextual",
                "contextual",
            ])
        #expect(
            messages.map(\.content) == [
                "[Request to communicate]", "hi Anna", "hello Bob", "📤 Sent via another device", "Sent 1.5 KAS — lunch",
                "thanks", "see you", "one more",
            ])
        #expect(messages.allSatisfy { $0.deliveryStatus == "sent" })
        #expect(messages.map(\.isOutgoing) == [true, false, true, true, true, false, false, false])
        #expect(messages[1].senderAddress == bob.description && messages[1].receiverAddress == anna.address.description)
        #expect(messages[1].blockTime == 1_790_000_120_000)
        #expect(messages[1].timestamp == Date(timeIntervalSince1970: 1_790_000_120))
        // UUIDs as Swift encodes them, upper case; the text of dates without fractions.
        let text = String(decoding: plaintext, as: UTF8.self)
        #expect(text.contains("\"id\" : \"\(messages[0].id.uuidString)\""))
        #expect(
            text.range(of: #""exportedAt" : "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ""#, options: .regularExpression) != nil)

        // And it comes back whole into a new device of Anna's.
        let phone = try Self.messenger(scratch, "phone", key: "anna")
        let imported = try await phone.importChatBackup(file)
        #expect(imported.messagesAdded == 8 && imported.contactsAdded == 1)
        let rows = try await phone.history(with: bob).rows
        #expect(
            rows.map { $0.body.map { String(decoding: $0, as: UTF8.self) } ?? "-" } == [
                "[Request to communicate]", "hi Anna", "hello Bob", "-", "lunch", "thanks", "see you", "one more",
            ])
        #expect(rows[4].amountSompi == 150_000_000)
        #expect(try await phone.conversations().first?.unread == 1)
    }

    @Test("Tandem's archive moves the whole chat state to a new device, once")
    func tandemArchiveRoundTrip() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let anna = try Self.messenger(scratch, "anna", key: "anna")
        let bob = try Self.address("bob")
        try await Self.fill(anna, bob: bob)
        let carol = try Self.address("carol")
        try await anna.addContact(carol, alias: "Carol")
        let routing = try anna.profile.openRouting()
        var state = try ConversationRoutingState(
            contact: bob, privateKey: try Self.key("anna"), legacyIncoming: [try Alias("a1b2c3d4e5f6")],
            now: UnixMillis(1_790_000_000_000))
        state.conversationID = "40b0a58c408a"
        try routing.save([state])
        let deleted = try Self.address("dave")
        try anna.profile.openChatHistory().deleteConversation(ConversationID(deleted.description), through: 1_000)

        let (file, report) = try await anna.exportChatBackup(format: .tandem)
        #expect(report.messages == 8)
        #expect(!String(decoding: file, as: UTF8.self).contains("hi Anna"), "the archive is sealed")

        let phone = try Self.messenger(scratch, "phone", key: "anna")
        let imported = try await phone.importChatBackup(file)
        #expect(imported.format == .tandem && imported.messagesAdded == 8 && imported.messagesSkipped == 0)
        #expect(imported.contactsAdded == 2 && imported.routingStatesMerged == 1 && imported.readMarksMoved == 1)
        #expect(try phone.profile.openChatHistory().snapshot() == (try anna.profile.openChatHistory().snapshot()))
        #expect(try phone.profile.openRouting().fetchOne(bob) == state)
        let names = try await phone.conversations().map { "\($0.contact.name ?? "-"):\($0.unread)" }
        #expect(names.sorted() == ["Bob:1", "Carol:0"])

        let again = try await phone.importChatBackup(file)
        #expect(again.messagesAdded == 0 && again.messagesUpdated == 0 && again.messagesUnchanged == 8)
        #expect(again.contactsAdded == 0 && again.routingStatesMerged == 0 && again.readMarksMoved == 0)
    }
}
