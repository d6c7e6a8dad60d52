/// Why sync data was refused. Import is all-or-nothing: any of these leaves the store untouched.
public enum ContactsSyncError: Error, Equatable, CustomStringConvertible {
    /// The sync file is not the expected JSON envelope.
    case malformedFile(reason: String)
    /// The envelope's format version is not one this build reads.
    case unsupportedVersion(Int)
    /// The blob did not decrypt: tampered, truncated, or sealed with another wallet's key.
    case authenticationFailed(recordID: String)
    /// The blob decrypted but its record does not decode.
    case malformedRecord(recordID: String, reason: String)
    /// The blob's id is not the id of the record inside (blobs were swapped or renamed).
    case recordIDMismatch(recordID: String)
    /// The record belongs to another wallet than the key that opened it.
    case foreignWallet(recordID: String, wallet: String)

    public var description: String {
        switch self {
        case .malformedFile(let reason): "contacts sync file: \(reason)"
        case .unsupportedVersion(let version): "contacts sync file: unsupported version \(version)"
        case .authenticationFailed(let id):
            "contacts sync record \(id): authentication failed (tampered or another wallet's)"
        case .malformedRecord(let id, let reason): "contacts sync record \(id): \(reason)"
        case .recordIDMismatch(let id): "contacts sync record \(id): id does not match its contents"
        case .foreignWallet(let id, let wallet): "contacts sync record \(id): belongs to wallet \(wallet)"
        }
    }
}
