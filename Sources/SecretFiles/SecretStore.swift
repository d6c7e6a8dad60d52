public import Foundation

/// Where a profile keeps its secrets (issue 44 item 3): the seed, the wallet key, the task
/// identity key, the session cookies. One seam, three homes — plain 0600 files
/// (``PlainSecretFiles``), an encrypted keystore file (``KeystoreFile``) and, on Apple platforms,
/// the Keychain (``KeychainSecretStore``). Secrets are named by the file name they have in a
/// plain profile (`wallet.key`, …), so moving between homes keeps every name.
public protocol SecretStore: Sendable {
    /// The secret stored under `name`; nil when there is none.
    func secret(_ name: String) throws(SecretStoreError) -> Data?
    /// Stores a secret that must not exist yet: two racing creators cannot both succeed.
    func add(_ name: String, _ data: Data) throws(SecretStoreError)
    /// Stores `data` under `name`, replacing what was there.
    func set(_ name: String, _ data: Data) throws(SecretStoreError)
    /// Removes the secret; removing a missing one is not an error.
    func remove(_ name: String) throws(SecretStoreError)
    /// The names of the stored secrets, sorted.
    func names() throws(SecretStoreError) -> [String]
}

/// Why a secret could not be read or written. No case carries a secret or a passphrase.
public enum SecretStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// ``SecretStore/add(_:_:)`` found the secret there already.
    case exists(String)
    /// The keystore is encrypted and no passphrase was given.
    case passphraseRequired
    /// The passphrase does not open the keystore (an AEAD tag mismatch: never garbage).
    case wrongPassphrase
    /// A passphrase must not be empty.
    case emptyPassphrase
    /// The store's file is not what Tandem writes.
    case damaged(path: String, reason: String)
    /// The operating system refused (the reason is `strerror`'s or ours).
    case fileSystem(path: String, reason: String)
    /// A Keychain call failed with this `OSStatus`.
    case keychain(operation: String, status: Int32)

    public var description: String {
        switch self {
        case .exists(let name): "the secret \(name) exists already; refusing to overwrite it"
        case .passphraseRequired: "the profile's secrets are encrypted and no passphrase was given"
        case .wrongPassphrase: "wrong passphrase for the profile's keystore"
        case .emptyPassphrase: "the passphrase is empty"
        case .damaged(let path, let reason): "\(path) is damaged: \(reason)"
        case .fileSystem(let path, let reason): "\(path): \(reason)"
        case .keychain(let operation, let status): "Keychain \(operation) failed (OSStatus \(status))"
        }
    }
}

extension SecretStoreError {
    init(_ error: SecretFileError) {
        switch error {
        case .exists(let path): self = .exists(URL(fileURLWithPath: path).lastPathComponent)
        case .fileSystem(let path, let reason): self = .fileSystem(path: path, reason: reason)
        }
    }
}

/// Secrets as 0600 files of a 0700 directory, one file per name: an unprotected profile, laid
/// out as profiles always were.
public struct PlainSecretFiles: SecretStore {
    public let directory: URL
    /// The names this store owns in the directory (other files there are not secrets).
    public let knownNames: [String]

    public init(directory: URL, knownNames: [String]) {
        self.directory = directory
        self.knownNames = knownNames.sorted()
    }

    public func secret(_ name: String) throws(SecretStoreError) -> Data? {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do { return try Data(contentsOf: url) } catch {
            throw .fileSystem(path: url.path, reason: "cannot read the file")
        }
    }

    public func add(_ name: String, _ data: Data) throws(SecretStoreError) {
        do {
            try SecretFile.createDirectory(directory)
            try SecretFile.createExclusively(directory.appendingPathComponent(name), contents: data)
        } catch { throw SecretStoreError(error) }
    }

    public func set(_ name: String, _ data: Data) throws(SecretStoreError) {
        do {
            try SecretFile.createDirectory(directory)
            try SecretFile.replace(directory.appendingPathComponent(name), contents: data)
        } catch { throw SecretStoreError(error) }
    }

    public func remove(_ name: String) throws(SecretStoreError) {
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        do { try FileManager.default.removeItem(at: url) } catch {
            throw .fileSystem(path: url.path, reason: "cannot remove the file")
        }
    }

    public func names() throws(SecretStoreError) -> [String] {
        knownNames.filter { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }
    }
}
