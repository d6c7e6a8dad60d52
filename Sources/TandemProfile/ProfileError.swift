package import SecretFiles

/// Why a profile file could not be read or written.
public enum ProfileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `keys new` never replaces an existing wallet key.
    case walletKeyExists(path: String)
    /// No wallet key yet; `tandem keys new` makes one.
    case walletKeyMissing(path: String)
    /// The key file does not hold 64 hex characters of a valid key.
    case invalidWalletKey(path: String, reason: String)
    /// The operating system refused a file operation.
    case fileSystem(path: String, reason: String)
    /// A profile file exists but does not hold what Tandem wrote there.
    case corruptFile(path: String, reason: String)
    /// The profile's secrets are encrypted and no passphrase was given (`hint` says how to give one).
    case passphraseRequired(hint: String)
    /// The passphrase source failed (an unreadable passphrase file, say).
    case passphraseUnavailable(String)
    /// The passphrase does not open the profile's keystore.
    case wrongPassphrase
    /// A passphrase must not be empty.
    case emptyPassphrase
    /// `keys protect` on a profile whose secrets are encrypted already.
    case alreadyProtected
    /// `keys unprotect` on a profile whose secrets are not encrypted.
    case notProtected
    /// The wallet was made from a raw key, so it has no seed phrase to show.
    case noSeedPhrase
    /// The seed phrase was refused (the reason never repeats a word).
    case invalidSeedPhrase(String)
    /// The secret store refused (a Keychain status, say).
    case secretStore(String)
    /// A profile name that is neither a name nor a path (``ProfileCatalog/reference(_:)``).
    case invalidProfileName(String)

    public var description: String {
        switch self {
        case .walletKeyExists(let path): "wallet key already exists at \(path); refusing to overwrite it"
        case .walletKeyMissing(let path): "no wallet key at \(path) (create one with `tandem keys new`)"
        case .invalidWalletKey(let path, let reason): "key file \(path): \(reason)"
        case .fileSystem(let path, let reason): "\(path): \(reason)"
        case .corruptFile(let path, let reason): "\(path) is damaged: \(reason)"
        case .passphraseRequired(let hint): "the profile's secrets are encrypted: \(hint)"
        case .passphraseUnavailable(let reason): reason
        case .wrongPassphrase: "wrong passphrase for the profile's encrypted secrets"
        case .emptyPassphrase: "the passphrase is empty"
        case .alreadyProtected: "the profile's secrets are encrypted already"
        case .notProtected: "the profile's secrets are not encrypted"
        case .noSeedPhrase: "this profile's wallet was made from a raw key: it has no seed phrase to show"
        case .invalidSeedPhrase(let reason): "seed phrase refused: \(reason)"
        case .secretStore(let reason): reason
        case .invalidProfileName(let text):
            "'\(text)' is not a profile name (letters, digits, '.', '_', '-') nor a path (give a path with a /, e.g. ./\(text))"
        }
    }
}

extension ProfileError {
    /// A secret-file failure in profile terms.
    package init(_ error: SecretFileError) {
        switch error {
        case .exists(let path): self = .fileSystem(path: path, reason: "already exists")
        case .fileSystem(let path, let reason): self = .fileSystem(path: path, reason: reason)
        }
    }

    /// A secret-store failure in profile terms.
    init(_ error: SecretStoreError) {
        switch error {
        case .exists(let name): self = .fileSystem(path: name, reason: "already exists")
        case .passphraseRequired: self = .passphraseRequired(hint: "no passphrase was given")
        case .wrongPassphrase: self = .wrongPassphrase
        case .emptyPassphrase: self = .emptyPassphrase
        case .damaged(let path, let reason): self = .corruptFile(path: path, reason: reason)
        case .fileSystem(let path, let reason): self = .fileSystem(path: path, reason: reason)
        case .keychain: self = .secretStore(error.description)
        }
    }
}
