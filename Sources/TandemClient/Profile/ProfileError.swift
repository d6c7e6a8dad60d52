import SecretFiles

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

    public var description: String {
        switch self {
        case .walletKeyExists(let path): "wallet key already exists at \(path); refusing to overwrite it"
        case .walletKeyMissing(let path): "no wallet key at \(path) (create one with `tandem keys new`)"
        case .invalidWalletKey(let path, let reason): "key file \(path): \(reason)"
        case .fileSystem(let path, let reason): "\(path): \(reason)"
        case .corruptFile(let path, let reason): "\(path) is damaged: \(reason)"
        }
    }
}

extension ProfileError {
    /// A secret-file failure in profile terms.
    init(_ error: SecretFileError) {
        switch error {
        case .exists(let path): self = .fileSystem(path: path, reason: "already exists")
        case .fileSystem(let path, let reason): self = .fileSystem(path: path, reason: reason)
        }
    }
}
