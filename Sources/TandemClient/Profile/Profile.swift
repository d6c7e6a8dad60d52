public import Foundation
public import KaspaCrypto
import SecretFiles

/// A profile directory: everything one user keeps on one device (wallet key, session, stores).
///
/// Secret files are created with mode 0600 inside a 0700 directory.
public struct Profile: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// `wallet.key`: the secp256k1 wallet key as 64 hex characters and a newline.
    public var walletKeyURL: URL { directory.appendingPathComponent("wallet.key") }

    /// Reads the wallet key.
    public func walletKey() throws(ProfileError) -> PrivateKey {
        let path = walletKeyURL.path
        guard FileManager.default.fileExists(atPath: path) else { throw .walletKeyMissing(path: path) }
        let data: Data
        do { data = try Data(contentsOf: walletKeyURL) } catch {
            throw .fileSystem(path: path, reason: "cannot read the file")
        }
        return try Profile.privateKey(fromKeyFile: data, path: path)
    }

    /// Creates a new wallet key from the system CSPRNG; never overwrites an existing one.
    @discardableResult
    public func createWalletKey() throws(ProfileError) -> PrivateKey {
        let key = PrivateKey.generate()
        do {
            try SecretFile.createDirectory(directory)
            try SecretFile.createExclusively(walletKeyURL, contents: Data((key.hexRepresentation + "\n").utf8))
        } catch .exists(let path) {
            throw .walletKeyExists(path: path)
        } catch {
            throw ProfileError(error)
        }
        return key
    }

    /// Parses key-file contents: 64 hex characters, surrounding whitespace and a trailing
    /// newline allowed. `path` names the source in errors ("-" for stdin).
    public static func privateKey(fromKeyFile data: Data, path: String) throws(ProfileError) -> PrivateKey {
        guard let text = String(data: data, encoding: .utf8) else {
            throw .invalidWalletKey(path: path, reason: "not UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count == 64 else {
            throw .invalidWalletKey(path: path, reason: "expected 64 hex characters, found \(trimmed.utf8.count)")
        }
        do { return try PrivateKey(hex: trimmed) } catch {
            throw .invalidWalletKey(path: path, reason: error.description)
        }
    }
}
