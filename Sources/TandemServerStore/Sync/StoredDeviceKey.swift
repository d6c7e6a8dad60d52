import TandemAPI
public import TandemBasics

/// A device key bound to an account (issue 12 item 1). A key belongs to at most one account;
/// a revoked key stays stored, so it can never be bound again, and nodes it signed stay valid.
public struct StoredDeviceKey: Sendable, Equatable {
    public let publicKey: String
    public let userID: AccountID
    public let createdAt: UnixMillis
    public let revokedAt: UnixMillis?

    public init(publicKey: String, userID: AccountID, createdAt: UnixMillis, revokedAt: UnixMillis?) {
        self.publicKey = publicKey
        self.userID = userID
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }
}

/// What binding a key did.
public enum DeviceKeyOutcome: Sendable, Equatable {
    /// Bound now.
    case registered(StoredDeviceKey)
    /// Already bound to this account: registering again is a no-op.
    case existing(StoredDeviceKey)
    /// Bound to another account.
    case ownedByAnotherAccount
    /// Bound to this account and revoked.
    case revoked
}
