import Crypto
public import Foundation
public import KaspaCrypto
import TandemBasics

/// One encrypted record as the sync server sees it: an opaque id and an opaque box.
public struct ContactSyncBlob: Sendable, Hashable, Codable {
    /// 64 lowercase hex: HMAC-SHA256 of the record key under a wallet-derived key, so the server
    /// can replace a record by id without learning which contact it is.
    public let id: String
    /// ChaChaPoly combined form (nonce ‖ ciphertext ‖ tag); the id is the associated data.
    public let box: Data

    public init(id: String, box: Data) {
        self.id = id
        self.box = box
    }
}

/// Seals and opens sync records with keys derived from the wallet key (issue 7 "Sync records").
///
/// HKDF-SHA256 over the wallet private key's 32 bytes, with a fixed salt and a
/// domain-separating info string per purpose, gives a ChaChaPoly key and an HMAC key for ids.
/// Only devices holding the wallet key can read or forge records.
public struct ContactsSyncCipher: Sendable {
    public let wallet: ContactAddress
    private let sealingKey: SymmetricKey
    /// HMAC-SHA256 keyed with the id key and fed nothing yet: each id copies it, so the key
    /// schedule is computed once per cipher rather than once per record (the digests inside are
    /// copy-on-write values).
    private let idMAC: HMAC<SHA256>

    static let salt = Data("tandem.contacts.sync".utf8)
    static let sealingInfo = Data("tandem contacts sync v1: record sealing key".utf8)
    static let idInfo = Data("tandem contacts sync v1: record id key".utf8)

    /// `network` picks the wallet address the records belong to (mainnet by default).
    public init(walletKey: PrivateKey, network: KaspaNetwork = .mainnet) {
        wallet = ContactAddress(KaspaAddress(publicKey: walletKey.xOnlyPublicKey, network: network))
        let material = SymmetricKey(data: walletKey.rawRepresentation)
        sealingKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: material, salt: Self.salt, info: Self.sealingInfo,
            outputByteCount: 32)
        let idKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: material, salt: Self.salt, info: Self.idInfo,
            outputByteCount: 32)
        idMAC = HMAC<SHA256>(key: idKey)
    }

    /// The opaque id of a record key.
    public func recordID(for key: ContactKey) -> String {
        var mac = idMAC
        mac.update(data: Data(key.description.utf8))
        return Hex.encode(Array(mac.finalize()))
    }

    public func seal(_ record: ContactRecord) throws -> ContactSyncBlob {
        let plaintext = try ContactRecordWire(record).plaintext()
        let id = recordID(for: record.key)
        let box = try ChaChaPoly.seal(plaintext, using: sealingKey, authenticating: Data(id.utf8))
        return ContactSyncBlob(id: id, box: box.combined)
    }

    /// Opens a blob; any change to its id or box fails authentication.
    public func open(_ blob: ContactSyncBlob) throws(ContactsSyncError) -> ContactRecord {
        let plaintext: Data
        do {
            let box = try ChaChaPoly.SealedBox(combined: blob.box)
            plaintext = try ChaChaPoly.open(box, using: sealingKey, authenticating: Data(blob.id.utf8))
        } catch {
            throw .authenticationFailed(recordID: blob.id)
        }
        let record: ContactRecord
        do {
            let wire = try ContactRecordWire.decode(plaintext)
            guard wire.v == 1 else {
                throw ContactsSyncError.malformedRecord(recordID: blob.id, reason: "version \(wire.v)")
            }
            record = try wire.record(wallet: wallet)
        } catch let error as ContactsSyncError {
            throw error
        } catch {
            throw .malformedRecord(recordID: blob.id, reason: String(describing: error))
        }
        guard record.key.wallet == wallet else {
            throw .foreignWallet(recordID: blob.id, wallet: record.key.wallet.description)
        }
        guard recordID(for: record.key) == blob.id else { throw .recordIDMismatch(recordID: blob.id) }
        return record
    }
}
