import TandemBasics

/// The device-key rules (issue 12 item 1), written once for both backends (issue 26 item 2):
/// each backend reads the key's row, asks here what to do, and writes what it is told. A key
/// belongs to at most one account, and a revoked key is never bound again.
enum DeviceKeyPlanner {
    /// What registering `publicKey` for `account` does, given the key's stored row (if any):
    /// the answer, and the row to insert when the key is new.
    static func register(publicKey: String, account: AccountID, now: UnixMillis, stored: StoredDeviceKey?)
        -> (outcome: DeviceKeyOutcome, insert: StoredDeviceKey?)
    {
        guard let stored else {
            let key = StoredDeviceKey(publicKey: publicKey, userID: account, createdAt: now, revokedAt: nil)
            return (.registered(key), key)
        }
        guard stored.userID == account else { return (.ownedByAnotherAccount, nil) }
        return (stored.revokedAt == nil ? .existing(stored) : .revoked, nil)
    }

    /// What revoking `account`'s key does, given its stored row: the key as the answer (nil when
    /// the account has no such key), and the revocation time to write when it is live now.
    static func revoke(account: AccountID, now: UnixMillis, stored: StoredDeviceKey?)
        -> (answer: StoredDeviceKey?, revokeAt: UnixMillis?)
    {
        guard let stored, stored.userID == account else { return (nil, nil) }
        guard stored.revokedAt == nil else { return (stored, nil) }
        let revoked = StoredDeviceKey(
            publicKey: stored.publicKey, userID: account, createdAt: stored.createdAt, revokedAt: now)
        return (revoked, now)
    }
}
