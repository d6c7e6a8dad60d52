import Crypto
import Foundation
import KaspaCrypto
import TandemBasics

/// KaChat's chat archive, `ChatHistoryArchive` schema 1 (kasia-protocol §16), member for
/// member: KaChat's own decoder reads what this encodes, and this decodes what KaChat writes
/// (members it adds later, such as groups and deleted contacts, are ignored).
struct KaChatArchive: Codable, Equatable {
    static let schemaVersion = 1

    var schemaVersion: Int
    var exportedAt: Date
    var walletAddress: String?
    var conversations: [Conversation]

    struct Conversation: Codable, Equatable {
        var conversationId: UUID?
        var contactAddress: String
        var contactAlias: String?
        var unreadCount: Int
        var messages: [Message]
    }

    /// KaChat's `ChatMessage`. `messageType` is `handshake`, `contextual`, `payment` or `audio`;
    /// `deliveryStatus` `pending`, `sent`, `failed` or `warning` (absent: `sent`, or `pending` for a
    /// `pending_` tx id). Both are read as text, so one unknown value skips a message, not the file.
    struct Message: Codable, Equatable {
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

    /// The bytes KaChat writes: ISO-8601 dates in whole seconds, pretty-printed, sorted keys.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads an archive. Dates are ISO-8601 text, with or without fractions of a second, or
    /// seconds since 2001 as a number (what KaChat's fallback decoder takes).
    static func decode(_ data: Data) throws(ChatBackupError) -> KaChatArchive {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let seconds = try? container.decode(Double.self) {
                guard seconds.isFinite else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "a date that is not finite")
                }
                return Date(timeIntervalSinceReferenceDate: seconds)
            }
            let text = try container.decode(String.self)
            guard let date = isoDate(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an ISO-8601 date: \(text)")
            }
            return date
        }
        let archive: KaChatArchive
        do {
            archive = try decoder.decode(KaChatArchive.self, from: data)
        } catch {
            if let version = (try? JSONDecoder().decode(Version.self, from: data))?.schemaVersion,
                version != schemaVersion
            {
                throw .unsupportedVersion(format: "KaChat", version: String(version))
            }
            throw .damaged("not a KaChat chat archive: \(Self.reason(error))")
        }
        guard archive.schemaVersion == schemaVersion else {
            throw .unsupportedVersion(format: "KaChat", version: String(archive.schemaVersion))
        }
        return archive
    }

    private struct Version: Decodable { var schemaVersion: Int }

    static func isoDate(_ text: String) -> Date? {
        (try? wholeSeconds.parse(text)) ?? (try? fractionalSeconds.parse(text))
    }

    /// Made once: a date parse runs for every message of an archive.
    private static let wholeSeconds = Date.ISO8601FormatStyle()
    private static let fractionalSeconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// The decoder's complaint in one line, with the member it concerns.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let context):
            return "member \(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let at = context.codingPath.isEmpty ? "" : " at \(path(context.codingPath))"
            return String(context.debugDescription.prefix(120)) + at
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
    }
}

/// KaChat's encrypted backup envelope v1 (kasia-protocol §16): AES-256-GCM under
/// SHA-256(identity private key ‖ "kachat-backup-v1"), no associated data, around the archive.
struct KaChatBackupEnvelope: Codable, Equatable {
    static let version = 1
    /// The member whose presence makes a file an envelope rather than a plaintext archive.
    static let marker = "kachatEncryptedBackup"

    var kachatEncryptedBackup: Int
    var cipher: String
    var nonce: String
    var ciphertext: String
    /// Optional in KaChat's own decoder; always written here.
    var walletHint: String?

    static func key(_ privateKey: PrivateKey) -> SymmetricKey {
        SymmetricKey(data: SHA256.hash(data: privateKey.rawRepresentation + Array("kachat-backup-v1".utf8)))
    }

    static func seal(_ plaintext: Data, key privateKey: PrivateKey, wallet: KaspaAddress) throws -> KaChatBackupEnvelope
    {
        let (nonce, ciphertext) = try BackupSeal.seal(plaintext, key: key(privateKey))
        return KaChatBackupEnvelope(
            kachatEncryptedBackup: version, cipher: BackupSeal.cipherName, nonce: nonce, ciphertext: ciphertext,
            walletHint: BackupSeal.walletHint(wallet))
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    static func decode(_ data: Data) throws(ChatBackupError) -> KaChatBackupEnvelope {
        do {
            return try JSONDecoder().decode(KaChatBackupEnvelope.self, from: data)
        } catch {
            throw .damaged("not a KaChat backup envelope: \(KaChatArchive.reason(error))")
        }
    }

    /// The archive's bytes (``BackupSeal/open(nonce:ciphertext:key:context:walletHint:wallet:)``).
    func open(key privateKey: PrivateKey, wallet: KaspaAddress) throws(ChatBackupError) -> Data {
        guard kachatEncryptedBackup == Self.version else {
            throw .unsupportedVersion(format: "KaChat encrypted", version: String(kachatEncryptedBackup))
        }
        guard cipher == BackupSeal.cipherName else { throw .damaged("KaChat backups use aes-256-gcm, not \(cipher)") }
        return try BackupSeal.open(
            nonce: nonce, ciphertext: ciphertext, key: Self.key(privateKey), walletHint: walletHint, wallet: wallet)
    }
}
