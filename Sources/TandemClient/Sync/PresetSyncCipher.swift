import Crypto
public import Foundation
public import KaspaCrypto
import RedoApp
public import TaskStore

/// Seals and opens task preset records (issue 27 item 3) with a key derived from the wallet key,
/// as contact records are (issue 7), under its own labels: only the account's devices can read
/// or forge them, and a box cannot be moved to another record id (the id is associated data).
///
/// The plaintext is JSON with sorted keys: `{"deleted","name","origin","query","stamp","v":1}`;
/// the id travels beside it.
public struct PresetSyncCipher: Sendable {
    private let sealingKey: SymmetricKey

    static let salt = Data("tandem.tasks.presets.sync".utf8)
    static let sealingInfo = Data("tandem task presets sync v1: record sealing key".utf8)

    public init(walletKey: PrivateKey) {
        sealingKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: walletKey.rawRepresentation), salt: Self.salt,
            info: Self.sealingInfo, outputByteCount: 32)
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let plaintext = try encoder.encode(
            Plaintext(
                v: 1, name: preset.name, query: preset.query, stamp: preset.stamp, origin: preset.origin,
                deleted: preset.deleted))
        return try ChaChaPoly.seal(plaintext, using: sealingKey, authenticating: Data(preset.id.utf8)).combined
    }

    /// Opens the box stored under `id`; nil when it does not authenticate under this wallet's key
    /// or does not hold a valid version-1 preset (another wallet's, damaged, from a newer format,
    /// a value this build does not know such as a new sort key, a name a save would refuse, or a
    /// stamp past year 9999).
    public func open(id: String, box: Data) -> TaskPreset? {
        guard let sealed = try? ChaChaPoly.SealedBox(combined: box),
            let plaintext = try? ChaChaPoly.open(sealed, using: sealingKey, authenticating: Data(id.utf8)),
            let record = try? JSONDecoder().decode(Plaintext.self, from: plaintext), record.v == 1,
            (try? record.query.validated()) != nil, (try? TaskPresets.check(record.name)) == record.name,
            (0...TaskPresets.latestStamp).contains(record.stamp), !record.origin.isEmpty
        else { return nil }
        return TaskPreset(
            id: id, name: record.name, query: record.query, stamp: record.stamp, origin: record.origin,
            deleted: record.deleted)
    }
}
