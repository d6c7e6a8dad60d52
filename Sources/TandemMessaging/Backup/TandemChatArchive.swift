import ChatHistory
import ChatTimeline
import Crypto
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemBasics

/// Tandem's chat backup (issue 48 item 2, `tandem chat export --format tandem`): the profile's
/// whole chat state, sealed under a key derived from the wallet key.
///
/// The file is `{"tandemChatBackup":1,"cipher":"aes-256-gcm","nonce":<base64 12 bytes>,
/// "ciphertext":<base64 ciphertext‖tag>,"walletHint":<hex of the first 8 bytes of
/// SHA-256(wallet address)>}`: KaChat's envelope shape under its own marker. The key is
/// HKDF-SHA256(wallet private key, salt "tandem-chat-backup-v1", info "archive key"); the
/// associated data is the UTF-8 text "tandem-chat-backup-v1". The plaintext is this archive's
/// JSON: history rows that travel (the same members as a synced chat record), deleted
/// conversations, read marks, reactions, routing states and the contacts' names.
struct TandemChatArchive: Codable, Equatable {
    static let version = 1

    var version: Int
    /// Milliseconds since 1970.
    var exportedAt: Int64
    var walletAddress: String
    var messages: [Message]
    var deletedConversations: [Deleted]
    var readMarks: [ReadMark]
    var reactions: [Reaction]
    var routing: [ConversationRoutingState]
    var contacts: [ContactName]

    struct Message: Codable, Equatable {
        var id: UUID
        var txId: String
        var conversation: String
        var direction: String
        var kind: String
        var status: String
        var blockTime: UInt64
        var timestamp: Int64
        var text: String?
        /// Decimal text: sompi outrun a double.
        var amountSompi: String?
        var root: String?
    }

    struct Deleted: Codable, Equatable {
        var conversation: String
        var through: UInt64
    }

    struct ReadMark: Codable, Equatable {
        var conversation: String
        var blockTime: UInt64
        var timestamp: Int64
        var id: UUID
    }

    struct Reaction: Codable, Equatable {
        var target: String
        var reactor: String
        var emoji: String?
        var txId: String
        var blockTime: UInt64
    }

    struct ContactName: Codable, Equatable {
        var address: String
        var alias: String?
    }

    init(
        snapshot: ChatHistorySnapshot, routing: [ConversationRoutingState], contacts: [ContactName],
        wallet: KaspaAddress, exportedAt: Int64
    ) {
        version = Self.version
        self.exportedAt = exportedAt
        walletAddress = wallet.description
        messages = snapshot.messages.map {
            Message(
                id: $0.id.uuid, txId: $0.txID?.rawValue ?? "", conversation: $0.conversation.rawValue,
                direction: $0.direction.rawValue, kind: $0.kind.rawValue, status: $0.status.rawValue,
                blockTime: $0.blockTime, timestamp: $0.timestamp,
                text: $0.body.map { String(decoding: $0, as: UTF8.self) },
                amountSompi: $0.amountSompi.map { String($0) },
                root: $0.root)
        }
        deletedConversations = snapshot.deletedConversations.map {
            Deleted(conversation: $0.key.rawValue, through: $0.value)
        }
        .sorted { $0.conversation < $1.conversation }
        readMarks = snapshot.readMarks.map {
            ReadMark(
                conversation: $0.key.rawValue, blockTime: $0.value.blockTime, timestamp: $0.value.timestamp,
                id: $0.value.id.uuid)
        }.sorted { $0.conversation < $1.conversation }
        reactions = snapshot.reactions.map {
            Reaction(
                target: $0.target.rawValue, reactor: $0.reactor, emoji: $0.emoji, txId: $0.txID.rawValue,
                blockTime: $0.blockTime)
        }
        self.routing = routing.sorted { $0.contactAddress.description < $1.contactAddress.description }
        self.contacts = contacts
    }

    /// The history part as a snapshot to merge; rows a history cannot hold are counted, not kept.
    func snapshot() -> (ChatHistorySnapshot, skipped: Int) {
        var snapshot = ChatHistorySnapshot()
        var skipped = 0
        for message in messages {
            guard let row = Self.row(message) else {
                skipped += 1
                continue
            }
            snapshot.messages.append(row)
        }
        for deleted in deletedConversations where deleted.through <= 1 << 53 {
            snapshot.deletedConversations[ConversationID(deleted.conversation)] = max(
                deleted.through, snapshot.deletedConversations[ConversationID(deleted.conversation)] ?? 0)
        }
        for mark in readMarks where mark.blockTime <= 1 << 53 {
            snapshot.readMarks[ConversationID(mark.conversation)] = MessageKey(
                blockTime: mark.blockTime, timestamp: mark.timestamp, id: MessageID(mark.id))
        }
        snapshot.reactions = reactions.filter { !$0.target.isEmpty && !$0.txId.isEmpty && $0.blockTime <= 1 << 53 }.map
        {
            ArchivedReaction(
                target: TxID($0.target), reactor: $0.reactor, emoji: $0.emoji, txID: TxID($0.txId),
                blockTime: $0.blockTime)
        }
        return (snapshot, skipped)
    }

    private static func row(_ message: Message) -> StoredMessage? {
        guard let direction = MessageDirection(rawValue: message.direction),
            let kind = MessageKind(rawValue: message.kind),
            let status = DeliveryStatus(rawValue: message.status)
        else { return nil }
        var amount: UInt64?
        if let digits = message.amountSompi {
            guard let value = UInt64(digits), String(value) == digits, value <= KaspaAmount.maximumSompi else {
                return nil
            }
            amount = value
        }
        let row = StoredMessage(
            id: MessageID(message.id), conversation: ConversationID(message.conversation), txID: TxID(message.txId),
            blockTime: message.blockTime, timestamp: message.timestamp, status: status, direction: direction,
            kind: kind,
            body: message.text.map { Data($0.utf8) }, amountSompi: amount, root: message.root)
        return ChatSyncRecord.travels(row) ? row : nil
    }
}

/// The sealed file around a ``TandemChatArchive``.
struct TandemChatEnvelope: Codable, Equatable {
    static let marker = "tandemChatBackup"
    static let version = 1
    static let context = Array("tandem-chat-backup-v1".utf8)

    var tandemChatBackup: Int
    var cipher: String
    var nonce: String
    var ciphertext: String
    var walletHint: String

    static func key(_ privateKey: PrivateKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: privateKey.rawRepresentation), salt: context,
            info: Array("archive key".utf8), outputByteCount: 32)
    }

    static func seal(_ archive: TandemChatArchive, key privateKey: PrivateKey, wallet: KaspaAddress) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let (nonce, ciphertext) = try BackupSeal.seal(
            encoder.encode(archive), key: key(privateKey), context: context)
        let envelope = TandemChatEnvelope(
            tandemChatBackup: version, cipher: BackupSeal.cipherName, nonce: nonce, ciphertext: ciphertext,
            walletHint: BackupSeal.walletHint(wallet))
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(envelope)
    }

    static func open(_ bytes: Data, key privateKey: PrivateKey, wallet: KaspaAddress) throws(ChatBackupError)
        -> TandemChatArchive
    {
        let envelope: TandemChatEnvelope
        do { envelope = try JSONDecoder().decode(TandemChatEnvelope.self, from: bytes) } catch {
            throw .damaged("not a Tandem chat backup envelope: \(KaChatArchive.reason(error))")
        }
        guard envelope.tandemChatBackup == version else {
            throw .unsupportedVersion(format: "Tandem", version: String(envelope.tandemChatBackup))
        }
        guard envelope.cipher == BackupSeal.cipherName else {
            throw .damaged("Tandem backups use aes-256-gcm, not \(envelope.cipher.prefix(40))")
        }
        let plaintext = try BackupSeal.open(
            nonce: envelope.nonce, ciphertext: envelope.ciphertext, key: key(privateKey), context: context,
            walletHint: envelope.walletHint, wallet: wallet)
        let archive: TandemChatArchive
        do { archive = try JSONDecoder().decode(TandemChatArchive.self, from: plaintext) } catch {
            if let version = (try? JSONDecoder().decode(Version.self, from: plaintext))?.version,
                version != TandemChatArchive.version
            {
                throw .unsupportedVersion(format: "Tandem", version: String(version))
            }
            throw .damaged("the opened archive is not valid: \(KaChatArchive.reason(error))")
        }
        guard archive.version == TandemChatArchive.version else {
            throw .unsupportedVersion(format: "Tandem", version: String(archive.version))
        }
        guard let named = try? KaspaAddress(archive.walletAddress) else {
            throw .damaged("walletAddress is not a Kaspa address")
        }
        try BackupWallet.check(named, is: wallet)
        return archive
    }

    private struct Version: Decodable { var version: Int }
}
