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

/// Issue 48 item 2 in the library: KaChat's encrypted backup, written here from kasia-protocol
/// §16 and KaChat's published `ChatHistoryArchive` (not with Tandem's encoder), imports; Tandem's
/// `kachat` export opens with the spec's key and reads as that format; Tandem's own archive moves
/// a whole chat state to a new device; Kasia web's export imports; and a wrong wallet, a damaged
/// file and a second import change nothing.
@Suite struct ChatBackupTests {
    /// A wallet key of its own per label (seeded, so runs repeat).
    static func key(_ label: String) throws -> PrivateKey {
        try PrivateKey(rawRepresentation: Array(SHA256.hash(data: Array("chat backup test \(label)".utf8))))
    }

    static func messenger(_ scratch: TemporaryDirectory, _ name: String, key label: String) throws -> Messenger {
        let profile = Profile(directory: scratch.url.appendingPathComponent(name, isDirectory: true))
        _ = try profile.importWalletKey(try key(label))
        return try profile.messenger(relay: try #require(URL(string: "http://127.0.0.1:9")))
    }

    static func address(_ label: String) throws -> KaspaAddress {
        KaspaAddress(publicKey: try key(label).xOnlyPublicKey)
    }

    /// A 64-hex transaction id per number.
    static func tx(_ number: Int) -> String { Hex.encode(SHA256.hash(data: Array("tx \(number)".utf8))) }

    /// KaChat's envelope around `archive`, built from the spec: AES-256-GCM under
    /// SHA-256(private key ‖ "kachat-backup-v1"), a 12-byte nonce, ciphertext‖tag in base64.
    static func kachatEnvelope(_ archive: String, key: PrivateKey, wallet: KaspaAddress) throws -> Data {
        let symmetric = SymmetricKey(data: SHA256.hash(data: key.rawRepresentation + Array("kachat-backup-v1".utf8)))
        let nonce = try AES.GCM.Nonce(data: Array(SHA256.hash(data: Array("nonce".utf8)).prefix(12)))
        let box = try AES.GCM.seal(Data(archive.utf8), using: symmetric, nonce: nonce)
        let hint = Hex.encode(SHA256.hash(data: Array(wallet.description.utf8)).prefix(8))
        return Data(
            """
            {"kachatEncryptedBackup":1,"cipher":"aes-256-gcm","nonce":"\(Data(box.nonce).base64EncodedString())",\
            "ciphertext":"\((box.ciphertext + box.tag).base64EncodedString())","walletHint":"\(hint)"}
            """.utf8)
    }

    /// One of KaChat's `ChatMessage`s as its encoder writes it.
    static func kachatMessage(
        _ number: Int, id: String, from sender: KaspaAddress, to receiver: KaspaAddress, outgoing: Bool,
        type: String = "contextual", content: String, status: String? = "sent", txId: String? = nil
    ) -> String {
        let statusMember = status.map { #", "deliveryStatus" : "\#($0)""# } ?? ""
        return """
            {"blockTime" : \(1_790_000_000_000 + number * 60_000), "content" : "\(content)"\(statusMember), \
            "id" : "\(id)", "isOutgoing" : \(outgoing), "messageType" : "\(type)", \
            "receiverAddress" : "\(receiver)", "senderAddress" : "\(sender)", \
            "timestamp" : "2026-09-21T13:3\(number):20Z", "txId" : "\(txId ?? tx(number))"}
            """
    }

    @Test("KaChat's encrypted backup, written from the spec, imports once and never overwrites")
    func kachatBackupFromTheSpec() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let messenger = try Self.messenger(scratch, "anna", key: "anna")
        let (anna, bob, stranger) = (messenger.address, try Self.address("bob"), try Self.address("stranger"))
        // Before: Anna's own message read from the chain (no text), and one whose text she knows.
        let history = try messenger.profile.openChatHistory()
        let known = MessageID(UUID(uuidString: "00000000-0000-4000-8000-000000000003")!)
        try history.save(contentsOf: [
            StoredMessage(
                id: known, conversation: ConversationID(bob.description), txID: TxID(Self.tx(3)),
                blockTime: 1_790_000_180_123, timestamp: 1_790_000_180_456, status: .confirmed, direction: .outgoing,
                kind: .text, body: Data("my own words".utf8)),
            StoredMessage(
                id: MessageID(UUID(uuidString: "00000000-0000-4000-8000-000000000004")!),
                conversation: ConversationID(bob.description), txID: TxID(Self.tx(4)), blockTime: 1_790_000_240_000,
                timestamp: 1_790_000_240_000, status: .confirmed, direction: .outgoing, kind: .text, body: nil),
        ])
        let messages = [
            Self.kachatMessage(
                1, id: "6F9619FF-8B86-D011-B42D-00C04FC96401", from: bob, to: anna, outgoing: false, type: "handshake",
                content: "[Request to communicate]"),
            Self.kachatMessage(
                2, id: "6F9619FF-8B86-D011-B42D-00C04FC96402", from: bob, to: anna, outgoing: false, content: "hi Anna",
                status: nil),
            Self.kachatMessage(
                3, id: "6F9619FF-8B86-D011-B42D-00C04FC96403", from: anna, to: bob, outgoing: true,
                content: "📤 Sent via another device"),
            Self.kachatMessage(
                4, id: "6F9619FF-8B86-D011-B42D-00C04FC96404", from: anna, to: bob, outgoing: true,
                content: "the text I wrote on the phone"),
            Self.kachatMessage(
                5, id: "6F9619FF-8B86-D011-B42D-00C04FC96405", from: anna, to: bob, outgoing: true, type: "payment",
                content: "Sent 1,234.5 KAS — rent"),
            Self.kachatMessage(
                6, id: "6F9619FF-8B86-D011-B42D-00C04FC96406", from: bob, to: anna, outgoing: false,
                content: "see you at 8"),
            // Never imported: unsent, failed, and a message between two other wallets.
            Self.kachatMessage(
                7, id: "6F9619FF-8B86-D011-B42D-00C04FC96407", from: anna, to: bob, outgoing: true, content: "draft",
                status: "pending", txId: "pending_6F9619FF"),
            Self.kachatMessage(
                8, id: "6F9619FF-8B86-D011-B42D-00C04FC96408", from: anna, to: bob, outgoing: true, content: "lost",
                status: "failed"),
            Self.kachatMessage(
                9, id: "6F9619FF-8B86-D011-B42D-00C04FC96409", from: bob, to: stranger, outgoing: false,
                content: "not Anna's"),
        ]
        let archive = """
            {
              "conversations" : [
                {
                  "contactAddress" : "\(bob)",
                  "contactAlias" : "Bob",
                  "messages" : [
                    \(messages.joined(separator: ",\n"))
                  ],
                  "unreadCount" : 1
                }
              ],
              "exportedAt" : "2026-11-30T10:00:00Z",
              "schemaVersion" : 1,
              "walletAddress" : "\(anna)"
            }
            """
        let file = try Self.kachatEnvelope(archive, key: try Self.key("anna"), wallet: anna)

        let report = try await messenger.importChatBackup(file)
        #expect(report.format == .kachat && report.conversations == 1 && report.messages == 9)
        #expect(
            report.messagesAdded == 4 && report.messagesUpdated == 1 && report.messagesUnchanged == 1
                && report.messagesSkipped == 3)
        #expect(report.contactsAdded == 1 && report.readMarksMoved == 1)
        let rows = try await messenger.history(with: bob).rows
        #expect(rows.map(\.txID?.rawValue) == (1...6).map(Self.tx))
        #expect(rows.map(\.kind) == [.handshake, .text, .text, .text, .payment, .text])
        #expect(
            rows.map { $0.body.map { String(decoding: $0, as: UTF8.self) } ?? "-" } == [
                "[Request to communicate]", "hi Anna", "my own words", "the text I wrote on the phone", "rent",
                "see you at 8",
            ])
        // What Anna held keeps its UUID and times; the payment carries its amount.
        #expect(rows[2].id == known && rows[2].timestamp == 1_790_000_180_456)
        #expect(rows[4].amountSompi == 123_450_000_000 && rows[4].direction == .outgoing)
        // KaChat's dates are whole seconds: 2026-09-21T13:32:20Z.
        #expect(rows[1].timestamp == 1_789_997_540_000 && rows[1].blockTime == 1_790_000_120_000)
        let list = try await messenger.conversations()
        #expect(list.map(\.contact.name) == ["Bob"] && list.first?.unread == 1)

        let again = try await messenger.importChatBackup(file)
        #expect(
            again.messagesAdded == 0 && again.messagesUpdated == 0 && again.messagesUnchanged == 6
                && again.contactsAdded == 0)
        #expect(again.readMarksMoved == 0)
        #expect(try await messenger.history(with: bob).rows == rows)

        // KaChat's older plaintext archive reads the same way. A message that arrived after the
        // backup was written stays unread: the archive's count names its own messages.
        let plain = try Self.messenger(scratch, "anna-plain", key: "anna")
        try plain.profile.openChatHistory().save(
            StoredMessage(
                id: MessageID(UUID(uuidString: "00000000-0000-4000-8000-000000000020")!),
                conversation: ConversationID(bob.description), txID: TxID(Self.tx(20)), blockTime: 1_790_001_000_000,
                timestamp: 1_790_001_000_000, status: .confirmed, direction: .incoming, kind: .text,
                body: Data("after the backup".utf8)))
        let fromPlain = try await plain.importChatBackup(Data(archive.utf8))
        #expect(fromPlain.format == .kachatPlaintext && fromPlain.messagesAdded == 6 && fromPlain.messagesSkipped == 3)
        #expect(try await plain.conversations().first?.unread == 2)
    }
}
