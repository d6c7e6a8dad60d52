/// Why a chat backup could not be read or written (issue 48 item 2). An import that fails
/// changes nothing.
public enum ChatBackupError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are none of the formats Tandem reads.
    case notABackup(String)
    /// The file names a format Tandem reads, but its contents are not valid.
    case damaged(String)
    /// A later version of a format than this Tandem reads.
    case unsupportedVersion(format: String, version: String)
    /// The backup belongs to another wallet, or does not open with this profile's key.
    case wrongWallet(String)
    /// The backup is larger than an import reads.
    case tooLarge(bytes: Int, limit: Int)

    public var description: String {
        switch self {
        case .notABackup(let reason): "not a chat backup: \(reason)"
        case .damaged(let reason): "the backup is damaged: \(reason)"
        case .unsupportedVersion(let format, let version):
            "the \(format) backup is of version \(version), which this Tandem does not read"
        case .wrongWallet(let reason): reason
        case .tooLarge(let bytes, let limit): "the backup has \(bytes) bytes, more than the \(limit) an import reads"
        }
    }
}
