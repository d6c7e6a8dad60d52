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

extension ChatBackupTests {
    /// Whether `messenger`'s profile holds no chat at all.
    static func isEmpty(_ messenger: Messenger) async throws -> Bool {
        let snapshot = try messenger.profile.openChatHistory().snapshot()
        let conversations = try await messenger.conversations()
        return snapshot == ChatHistorySnapshot() && conversations.isEmpty
    }

    @Test("a backup of another wallet, a damaged or foreign file, or a later version changes nothing")
    func refusals() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let anna = try Self.messenger(scratch, "anna", key: "anna")
        try await Self.fill(anna, bob: try Self.address("bob"))
        let tandem = try await anna.exportChatBackup(format: .tandem).file
        let kachat = try await anna.exportChatBackup(format: .kachat).file
        let other = try Self.messenger(scratch, "other", key: "someone else")

        // Another wallet's backups: neither opens, and both say whose they are.
        for file in [tandem, kachat] {
            await #expect {
                try await other.importChatBackup(file)
            } throws: { error in
                guard case ChatBackupError.wrongWallet(let reason) = error else { return false }
                return reason.contains("another wallet")
            }
        }
        // KaChat's plaintext archive of Anna's, read by another wallet: refused by its address.
        let plain = try Self.kachatPlaintext(of: kachat, key: try Self.key("anna"))
        await #expect(
            throws: ChatBackupError.wrongWallet(
                "the backup is of \(anna.address), not of this profile's wallet \(other.address)")
        ) {
            try await other.importChatBackup(plain)
        }
        #expect(try await Self.isEmpty(other))

        // Truncated, altered, foreign, or of a later version: one clear error each, nothing kept.
        let phone = try Self.messenger(scratch, "phone", key: "anna")
        var altered = try #require(try JSONSerialization.jsonObject(with: tandem) as? [String: Any])
        let sealedText = try #require(altered["ciphertext"] as? String)
        var sealed = try #require(Data(base64Encoded: sealedText))
        sealed[sealed.count / 2] ^= 1
        altered["ciphertext"] = sealed.base64EncodedString()
        var later = try #require(try JSONSerialization.jsonObject(with: tandem) as? [String: Any])
        later["tandemChatBackup"] = 2
        let cases: [(Data, ChatBackupError)] = [
            (tandem.prefix(tandem.count / 2), .notABackup("the file is not a JSON object")),
            (
                try JSONSerialization.data(withJSONObject: altered),
                .damaged("it does not open with this wallet's key (altered or truncated)")
            ),
            (
                Data(#"{"hello":"world"}"#.utf8),
                .notABackup("a JSON object that is none of Tandem's, KaChat's or Kasia web's backups")
            ),
            (Data("[1,2,3]".utf8), .notABackup("the file is not a JSON object")),
            (try JSONSerialization.data(withJSONObject: later), .unsupportedVersion(format: "Tandem", version: "2")),
            (
                Data(#"{"schemaVersion":2,"conversations":[]}"#.utf8),
                .unsupportedVersion(format: "KaChat", version: "2")
            ),
        ]
        for (file, expected) in cases {
            await #expect(throws: expected) { try await phone.importChatBackup(file) }
        }
        #expect(try await Self.isEmpty(phone))
    }

    /// The archive inside a KaChat envelope, opened with the spec's key.
    static func kachatPlaintext(of file: Data, key: PrivateKey) throws -> Data {
        let envelope = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        let nonceText = try #require(envelope["nonce"] as? String)
        let sealedText = try #require(envelope["ciphertext"] as? String)
        let nonce = try #require(Data(base64Encoded: nonceText))
        let sealed = try #require(Data(base64Encoded: sealedText))
        let symmetric = SymmetricKey(data: SHA256.hash(data: key.rawRepresentation + Array("kachat-backup-v1".utf8)))
        return try AES.GCM.open(
            AES.GCM.SealedBox(
                nonce: AES.GCM.Nonce(data: nonce), ciphertext: sealed.dropLast(16), tag: sealed.suffix(16)),
            using: symmetric)
    }

    @Test("Kasia web's export, sealed to the wallet's own key, imports; a second import adds nothing")
    func kasiaWebBackup() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let anna = try Self.messenger(scratch, "anna", key: "anna")
        let (me, bob, stranger) = (anna.address, try Self.address("bob"), try Self.address("stranger"))
        func message(_ n: Int, from: KaspaAddress, to: KaspaAddress, at stamp: Int, content: String, amount: Double)
            -> String
        {
            """
            {"transactionId":"\(Self.tx(n))","senderAddress":"\(from)","recipientAddress":"\(to)",\
            "timestamp":\(stamp),"content":\(content),"amount":\(amount),"payload":"636970685f6d73673a"}
            """
        }
        let handshake = #"{\"type\":\"handshake\",\"alias\":\"a1b2c3d4e5f6\",\"timestamp\":1790000000,\"version\":1}"#
        let payment = #"{\"type\":\"payment\",\"message\":\"for the tickets\",\"amount\":0.5,\"version\":1}"#
        let messages = [
            message(1, from: bob, to: me, at: 1_790_000_000_000, content: "\"\(handshake)\"", amount: 0.2),
            message(2, from: bob, to: me, at: 1_790_000_060_000, content: "\"hello from Kasia\"", amount: 0.2),
            // Early Kasia versions wrote some times in seconds.
            message(3, from: me, to: bob, at: 1_790_000_120, content: "\"my answer\"", amount: 0.2),
            message(4, from: bob, to: me, at: 1_790_000_180_000, content: "\"\(payment)\"", amount: 0.5),
            message(5, from: bob, to: stranger, at: 1_790_000_240_000, content: "\"not ours\"", amount: 0.2),
        ]
        let inner = """
            {"version":"1.0","timestamp":1790000300000,"type":"kaspa-messages-backup",\
            "data":{"\(me)":[\(messages.joined(separator: ","))]},"nicknames":{"\(bob)":"Bobby"},\
            "conversations":{"active":[],"pending":[]}}
            """
        let sealed = try KasiaCipher.seal(inner, to: me)
        let file = Data(#"{"type":"kaspa-messages-backup","data":"\#(Hex.encode(sealed))"}"#.utf8)

        let report = try await anna.importChatBackup(file)
        #expect(
            report.format == .kasiaWeb && report.messages == 5 && report.messagesAdded == 4
                && report.messagesSkipped == 1)
        #expect(report.contactsAdded == 1)
        let rows = try await anna.history(with: bob).rows
        #expect(rows.map(\.kind) == [.handshake, .text, .text, .payment])
        #expect(rows.map(\.direction) == [.incoming, .incoming, .outgoing, .incoming])
        #expect(rows[2].timestamp == 1_790_000_120_000 && rows[2].body == Data("my answer".utf8))
        #expect(rows[3].amountSompi == 50_000_000 && rows[3].body == Data("for the tickets".utf8))
        #expect(!rows[3].isVerifiedPayment, "a file's word does not verify a payment: the chain does")
        #expect(try await anna.conversations().map(\.contact.name) == ["Bobby"])
        let again = try await anna.importChatBackup(file)
        #expect(again.messagesAdded == 0 && again.messagesUpdated == 0 && again.messagesUnchanged == 4)

        // Sealed to another wallet, it does not open.
        let foreign = Data(
            #"{"type":"kaspa-messages-backup","data":"\#(Hex.encode(try KasiaCipher.seal(inner, to: bob)))"}"#.utf8)
        await #expect {
            try await anna.importChatBackup(foreign)
        } throws: { error in
            if case ChatBackupError.wrongWallet = error { return true }
            return false
        }
    }
}
