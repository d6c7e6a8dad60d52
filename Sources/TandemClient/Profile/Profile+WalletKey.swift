public import Foundation
public import KaspaCrypto
import SecretFiles

extension Profile {
    /// Reads the wallet key (``File/walletKey``).
    public func walletKey() throws(ProfileError) -> PrivateKey {
        let url = url(.walletKey)
        guard FileManager.default.fileExists(atPath: url.path) else { throw .walletKeyMissing(path: url.path) }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw .fileSystem(path: url.path, reason: "cannot read the file")
        }
        return try Profile.privateKey(fromKeyFile: data, path: url.path)
    }

    /// The wallet's Kaspa address (mainnet, Schnorr).
    public func walletAddress() throws(ProfileError) -> KaspaAddress {
        KaspaAddress(publicKey: try walletKey().xOnlyPublicKey)
    }

    /// Creates a new wallet key from the system CSPRNG; never overwrites an existing one.
    @discardableResult
    public func createWalletKey() throws(ProfileError) -> PrivateKey {
        try importWalletKey(PrivateKey.generate())
    }

    /// Stores `key` as the wallet key (a restore from a backed-up key); never overwrites one.
    @discardableResult
    public func importWalletKey(_ key: PrivateKey) throws(ProfileError) -> PrivateKey {
        do {
            try SecretFile.createDirectory(directory)
            try SecretFile.createExclusively(url(.walletKey), contents: Data((key.hexRepresentation + "\n").utf8))
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
