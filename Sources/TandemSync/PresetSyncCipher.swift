import Crypto
public import Foundation
public import KaspaCrypto
import RedoApp
public import TaskStore

/// Seals and opens task preset records (issue 27 item 3, issue 28) with the account's presets
/// key (``PresetKeyring``): AES-GCM under a key derived from it, the record id as associated
/// data, so only the account's devices can read or forge a record and a box cannot be moved to
/// another id. AES-GCM because a browser's WebCrypto has it (and not ChaCha20-Poly1305).
///
/// The plaintext is JSON: `{"deleted","name","origin","query","stamp","v":1}`; the id travels
/// beside it. `box` = nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes).
///
/// Records written before issue 28 were sealed with ChaCha20-Poly1305 under a key derived from
/// the wallet key; ``init(legacyWalletKey:)`` opens them, and the sync seals them again.
public struct PresetSyncCipher: Sendable {
    private let sealingKey: SymmetricKey
    private let legacy: Bool

    static let salt = Data("tandem.tasks.presets.sync".utf8)

    /// Records sealed with the account's presets key.
    init(accountKey: SymmetricKey) {
        sealingKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: accountKey, salt: Self.salt,
            info: Data("tandem task presets sync v2: record sealing key".utf8), outputByteCount: 32)
        legacy = false
    }

    /// Opens records sealed before issue 28 (it seals as the current cipher never does).
    public init(legacyWalletKey walletKey: PrivateKey) {
        sealingKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: walletKey.rawRepresentation), salt: Self.salt,
            info: Data("tandem task presets sync v1: record sealing key".utf8), outputByteCount: 32)
        legacy = true
    }

    struct Plaintext: Codable {
        var v: Int
        var name: String
        var query: TaskQuery
        var stamp: Int64
        var origin: String
        var deleted: Bool
    }

    public func seal(_ preset: TaskPreset) throws -> Data {
        guard !legacy else { throw CryptoKitError.incorrectParameterSize }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let plaintext = try encoder.encode(
            Plaintext(
                v: 1, name: preset.name, query: preset.query, stamp: preset.stamp, origin: preset.origin,
                deleted: preset.deleted))
        let sealed = try AES.GCM.seal(plaintext, using: sealingKey, authenticating: Data(preset.id.utf8))
        guard let combined = sealed.combined else { throw CryptoKitError.incorrectParameterSize }
        return combined
    }

    /// The preset in `box`, or nil when it does not open with this key or does not hold a valid
    /// preset.
    public func open(id: String, box: Data) -> TaskPreset? {
        let plaintext: Data?
        if legacy {
            plaintext = (try? ChaChaPoly.SealedBox(combined: box)).flatMap {
                try? ChaChaPoly.open($0, using: sealingKey, authenticating: Data(id.utf8))
            }
        } else {
            plaintext = (try? AES.GCM.SealedBox(combined: box)).flatMap {
                try? AES.GCM.open($0, using: sealingKey, authenticating: Data(id.utf8))
            }
        }
        guard let plaintext, let record = try? JSONDecoder().decode(Plaintext.self, from: plaintext), record.v == 1,
            (try? record.query.validated()) != nil, (try? TaskPresets.check(record.name)) == record.name,
            (0...TaskPresets.latestStamp).contains(record.stamp), !record.origin.isEmpty
        else { return nil }
        return TaskPreset(
            id: id, name: record.name, query: record.query, stamp: record.stamp, origin: record.origin,
            deleted: record.deleted)
    }
}
