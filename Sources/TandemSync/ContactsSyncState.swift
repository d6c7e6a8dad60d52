/// Where contacts sync stands (``Profile/File/contactsSync``): the pull cursor, and for each
/// record id the version the server holds and the digest of that record's content, so a push
/// sends only changed records and names the version it merged from.
public struct ContactsSyncState: Sendable, Equatable, Codable {
    public var server: String?
    public var accountID: String?
    public var wallet: String?
    public var cursor: String?
    public var versions: [String: Int64] = [:]
    public var digests: [String: String] = [:]

    public init() {}
}

extension ContactsSyncState: SealedRecordSyncState {}
