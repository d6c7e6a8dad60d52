/// Where task sync stands (``Profile/File/taskSync``): which server and account the log's
/// marks and the cursor belong to, and whether this device's key is bound to that account.
public struct TaskSyncState: Sendable, Equatable, Codable {
    /// The server origin and account id the rest describes; another pair starts over.
    public var server: String?
    public var accountID: String?
    /// The public key registered with `POST /api/me/keys` for this account.
    public var registeredKey: String?
    /// The pull cursor the server issued last (opaque).
    public var cursor: String?
    /// The `author.userId` of each of the account's device keys, as the last sync listed them.
    public var accountKeys: [String]?

    public init() {}
}
