import ChatHistory
import ChatTimeline
import Crypto
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemBasics

/// Kasia web's message export (`K-Kluster/Kasia`, `exportMessages`): the file
/// `{"type":"kaspa-messages-backup","data":<hex>}`, where `data` is the backup's JSON sealed to the
/// wallet's own receive key with the Kasia message cipher (kasia-protocol §3). Inside:
/// `{"version":"1.0","timestamp","type","data":{<address>:[message]},"nicknames":{<address>:name},
/// "conversations":{…}}`, each message `{transactionId, senderAddress, recipientAddress,
/// timestamp, content, amount (KAS), payload, fee?, fileData?}`.
///
/// Read only: Tandem writes its own and KaChat's formats. The conversations' aliases are not
/// taken from the file (a `chat restore` reads them from the wallet's self-stash).
enum KasiaWebBackup {
    static let fileType = "kaspa-messages-backup"

    private struct File: Decodable {
        var type: String
        var data: String
    }

    private struct Inner: Decodable {
        var version: String
        var type: String
        var data: [String: [LegacyMessage]]
        var nicknames: [String: String]?
    }

    /// Every member optional: a message of another shape is skipped, not the whole file.
    private struct LegacyMessage: Decodable {
        var transactionId: String?
        var senderAddress: String?
        var recipientAddress: String?
        var timestamp: Double?
        var content: String?
        var amount: Double?
    }

    /// Opens the file with the wallet's key and reads its messages as this wallet's history.
    static func imported(_ bytes: Data, key: PrivateKey, wallet: KaspaAddress) throws(ChatBackupError)
        -> KaChatArchive.Imported
    {
        let file: File
        do { file = try JSONDecoder().decode(File.self, from: bytes) } catch {
            throw .damaged("not a Kasia web backup: \(KaChatArchive.reason(error))")
        }
        guard file.type == fileType else { throw .notABackup("a file of type \(file.type.prefix(60))") }
        let sealed: [UInt8]
        do { sealed = try Hex.decode(file.data) } catch { throw .damaged("its data is not hex") }
        let text: String
        do { text = try KasiaCipher.open(sealed, using: key) } catch KasiaCipherError.authenticationFailed {
            throw .wrongWallet("the backup does not open with this profile's wallet key: it is of another wallet")
        } catch {
            throw .damaged("its data is not a sealed Kasia message (\(error))")
        }
        let inner: Inner
        do { inner = try JSONDecoder().decode(Inner.self, from: Data(text.utf8)) } catch {
            throw .damaged("the opened backup is not Kasia's backup JSON: \(KaChatArchive.reason(error))")
        }
        guard inner.version.hasPrefix("1.") else {
            throw .unsupportedVersion(format: "Kasia web", version: inner.version)
        }
        var result = KaChatArchive.Imported()
        var peers: Set<KaspaAddress> = []
        for message in inner.data.values.joined() {
            result.messages += 1
            guard let found = self.row(message, wallet: wallet) else {
                result.skipped += 1
                continue
            }
            result.snapshot.messages.append(found.row)
            peers.insert(found.peer)
        }
        let names = inner.nicknames ?? [:]
        for peer in peers.sorted(by: { $0.description < $1.description }) {
            let name = names[peer.description]?.trimmingCharacters(in: .whitespacesAndNewlines)
            result.peers.append((peer, name?.isEmpty == false ? name : nil))
        }
        result.conversations = peers.count
        return result
    }

    private static func row(_ message: LegacyMessage, wallet: KaspaAddress) -> (row: StoredMessage, peer: KaspaAddress)?
    {
        guard let txID = message.transactionId, !txID.isEmpty, let sender = message.senderAddress,
            let recipient = message.recipientAddress, let stamp = message.timestamp, stamp.isFinite, stamp >= 0,
            let content = message.content
        else { return nil }
        let outgoing = BackupWallet.same(sender, wallet)
        guard outgoing || BackupWallet.same(recipient, wallet),
            let peer = try? KaspaAddress(outgoing ? recipient : sender), peer.network == wallet.network
        else { return nil }
        // Kasia wrote milliseconds, and seconds in a few paths of its early versions.
        let milliseconds = stamp < 100_000_000_000 ? stamp * 1000 : stamp
        guard let time = BackupTime.milliseconds(Date(timeIntervalSince1970: milliseconds / 1000)) else { return nil }
        var kind = MessageKind.text
        var body: Data? = Data(content.utf8)
        var amount: UInt64?
        // Only a JSON object can be Kasia's handshake or payment content.
        if content.hasPrefix("{"), let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(content.utf8)) {
            switch envelope.type {
            case "handshake":
                kind = .handshake
                body = Data(((envelope.isResponse ?? false) ? "[Request accepted]" : "[Request to communicate]").utf8)
            case "payment":
                kind = .payment
                body = envelope.message.map { Data($0.utf8) }
                amount = sompi(envelope.amount ?? message.amount)
            default: break
            }
        }
        // An imported payment waits for the chain to verify it (issue 50 item 7).
        let row = StoredMessage(
            id: stableID(txID), conversation: ConversationID(peer.description), txID: TxID(txID),
            blockTime: UInt64(time), timestamp: time, status: kind == .payment ? .sent : .confirmed,
            direction: outgoing ? .outgoing : .incoming,
            kind: kind, body: body, amountSompi: amount)
        return ChatSyncRecord.travels(row) ? (row, peer) : nil
    }

    /// The JSON Kasia kept as the content of handshakes and payments.
    private struct Envelope: Decodable {
        var type: String
        var message: String?
        var amount: Double?
        var isResponse: Bool?
    }

    private static func sompi(_ kas: Double?) -> UInt64? {
        guard let kas, kas.isFinite, kas >= 0 else { return nil }
        let value = (kas * Double(KaspaAmount.sompiPerKAS)).rounded()
        guard value <= Double(KaspaAmount.maximumSompi) else { return nil }
        return UInt64(value)
    }

    /// The same UUID for a transaction on every import: Kasia's file has none, and a second
    /// import must find the rows of the first.
    static func stableID(_ txID: String) -> MessageID {
        var bytes = Array(SHA256.hash(data: Array("tandem kasia-web backup \(txID)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return MessageID(bytes: bytes) ?? MessageID(UUID())
    }
}
