public import ChatHistory
import Crypto
public import Foundation
public import KaspaCrypto
import TandemBasics

/// Seals and opens chat history records (issue 48 item 1) with keys derived from the wallet key,
/// as contact records are (issue 7 "Sync records"): HKDF-SHA256 over the wallet private key's 32
/// bytes gives an AES-GCM sealing key and an HMAC-SHA256 key for record ids. Only devices holding
/// the wallet key — the same seed, which is also the only key that opens the chats themselves —
/// read or forge a record; the server sees opaque ids and boxes and their sizes.
///
/// A record's id is HMAC(id key, ``ChatSyncRecord/key``), so every device names one message (by
/// its transaction id) or one conversation alike without the server learning which; the id is
/// the box's associated data, and an opened record must hash back to its id, so no box can be
/// moved to another record. `box` = nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes).
public struct ChatHistorySyncCipher: Sendable {
    private let sealingKey: SymmetricKey
    private let idMAC: HMAC<SHA256>

    static let salt = Data("tandem.chat.history.sync".utf8)

    public init(walletKey: PrivateKey) {
        let material = SymmetricKey(data: walletKey.rawRepresentation)
        sealingKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: material, salt: Self.salt,
            info: Data("tandem chat history sync v1: record sealing key".utf8),
            outputByteCount: 32)
        idMAC = HMAC<SHA256>(
            key: HKDF<SHA256>.deriveKey(
                inputKeyMaterial: material, salt: Self.salt,
                info: Data("tandem chat history sync v1: record id key".utf8),
                outputByteCount: 32))
    }

    /// The opaque id of a record key: 64 lowercase hex digits.
    public func recordID(for key: String) -> String {
        var mac = idMAC
        mac.update(data: Data(key.utf8))
        return Hex.encode(Array(mac.finalize()))
    }

    /// Seals a record's plaintext under its id.
    public func seal(_ plaintext: [UInt8], id: String) throws -> Data {
        let sealed = try AES.GCM.seal(plaintext, using: sealingKey, authenticating: Data(id.utf8))
        guard let combined = sealed.combined else { throw CryptoKitError.incorrectParameterSize }
        return combined
    }

    /// The record in `box` and its plaintext, or nil when the box does not open with this wallet's
    /// key (another wallet's, or damaged), holds no valid record, or names another record's id.
    public func open(id: String, box: Data) -> (record: ChatSyncRecord, plaintext: [UInt8])? {
        guard let sealed = try? AES.GCM.SealedBox(combined: box),
            let plaintext = try? AES.GCM.open(sealed, using: sealingKey, authenticating: Data(id.utf8)),
            let record = ChatSyncRecord.parse(plaintext), recordID(for: record.key) == id
        else { return nil }
        return (record, Array(plaintext))
    }
}
