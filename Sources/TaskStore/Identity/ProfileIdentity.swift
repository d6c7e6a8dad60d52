public import Foundation
public import RedoProtocol
import SecretFiles
import TandemBasics

/// The profile's crypto identity (spec §3, §11.1): an Ed25519 seed in `identity.key` (hex, mode
/// 0600), its userId, and a device id in `device.id`.
public struct ProfileIdentity: Sendable {
    public let key: SigningKey
    public let deviceID: DeviceID

    public init(key: SigningKey, deviceID: DeviceID) {
        self.key = key
        self.deviceID = deviceID
    }

    public var userID: UserID { key.userID }
    public var author: Author { Author(publicKey: key.publicKey, deviceID: deviceID) }

    /// Loads the identity kept in `keyURL` (the Ed25519 seed) and `deviceURL` (the device id),
    /// creating the directory, key and device id on first use. Where the files live is the
    /// profile's business (`TandemProfile.Profile`).
    public static func loadOrCreate(keyFile keyURL: URL, deviceFile deviceURL: URL) throws -> ProfileIdentity {
        try SecretFile.createDirectory(keyURL.deletingLastPathComponent())
        try createUnlessPresent(keyURL, newKeyFile())
        let deviceID = try loadOrCreateDevice(deviceURL)
        return ProfileIdentity(key: try readKey(keyURL), deviceID: deviceID)
    }

    /// The device id kept in `deviceURL`, created on first use.
    public static func loadOrCreateDevice(_ deviceURL: URL) throws -> DeviceID {
        try SecretFile.createDirectory(deviceURL.deletingLastPathComponent())
        var generator = SystemRandomNumberGenerator()
        let deviceBytes = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try createUnlessPresent(deviceURL, Data(("device-" + Hex.encode(deviceBytes) + "\n").utf8))
        return try readDevice(deviceURL)
    }

    /// A fresh identity key as its file holds it: 64 lowercase hex characters and a newline.
    public static func newKeyFile() -> Data { Data((Hex.encode(SigningKey().seed) + "\n").utf8) }

    /// Parses identity-key contents (64 lowercase hex characters); `path` names the source in errors.
    public static func key(fromKeyFile data: Data, path: String) throws -> SigningKey {
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let seed = Hex.decodeLowercase(text, byteCount: 32), let key = try? SigningKey(seed: seed) else {
            throw TaskStoreError.malformedKeyFile(path: path)
        }
        return key
    }

    /// Creates the file exclusively with mode 0600; an existing file (made earlier, or by a
    /// process racing this one) is kept, never overwritten.
    private static func createUnlessPresent(_ url: URL, _ contents: Data) throws(SecretFileError) {
        do { try SecretFile.createExclusively(url, contents: contents) } catch .exists { return }
    }

    private static func readKey(_ url: URL) throws -> SigningKey {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        let permissions = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0
        guard permissions & 0o077 == 0 else {
            throw TaskStoreError.keyFileTooOpen(path: url.path, permissions: permissions)
        }
        return try key(fromKeyFile: try Data(contentsOf: url), path: url.path)
    }

    private static func readDevice(_ url: URL) throws -> DeviceID {
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard let device = DeviceID(text) else { throw TaskStoreError.malformedDeviceFile(path: url.path) }
        return device
    }
}
