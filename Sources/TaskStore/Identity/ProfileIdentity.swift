public import Foundation
public import RedoProtocol
import SecretFiles

/// The profile's crypto identity (spec §3, §11.1): an Ed25519 seed in `identity.key` (hex, mode
/// 0600), its userId, and a device id in `device.id`.
public struct ProfileIdentity: Sendable {
    public let key: SigningKey
    public let deviceID: DeviceID

    public var userID: UserID { key.userID }
    public var author: Author { Author(publicKey: key.publicKey, deviceID: deviceID) }

    /// Loads the identity kept in `keyURL` (the Ed25519 seed) and `deviceURL` (the device id),
    /// creating the directory, key and device id on first use. Where the files live is the
    /// profile's business (`TandemClient.Profile`).
    public static func loadOrCreate(keyFile keyURL: URL, deviceFile deviceURL: URL) throws -> ProfileIdentity {
        try SecretFile.createDirectory(keyURL.deletingLastPathComponent())
        try SecretFile.createDirectory(deviceURL.deletingLastPathComponent())
        try createUnlessPresent(keyURL, Data((LowercaseText.hex(SigningKey().seed) + "\n").utf8))
        var generator = SystemRandomNumberGenerator()
        let deviceBytes = (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try createUnlessPresent(deviceURL, Data(("device-" + LowercaseText.hex(deviceBytes) + "\n").utf8))
        return ProfileIdentity(key: try readKey(keyURL), deviceID: try readDevice(deviceURL))
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
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard let seed = LowercaseText.bytes(fromHex: text), seed.count == 32, let key = try? SigningKey(seed: seed) else {
            throw TaskStoreError.malformedKeyFile(path: url.path)
        }
        return key
    }

    private static func readDevice(_ url: URL) throws -> DeviceID {
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard let device = DeviceID(text) else { throw TaskStoreError.malformedDeviceFile(path: url.path) }
        return device
    }
}

/// Hex for the key file (lowercase, like every hex in the protocol).
enum LowercaseText {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
        }.joined()
    }

    static func bytes(fromHex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < utf8.count {
            guard let high = nibble(utf8[index]), let low = nibble(utf8[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
