public import TandemAPI
public import TandemBasics

/// How much one account may keep in one synced collection (issue 50 item 6): rows and bytes of
/// what it stored (its pushed nodes' canonical text, its records' sealed boxes). A write that
/// would take the account past either is refused whole (HTTP 413 `QUOTA_EXCEEDED`); a write that
/// shrinks what it holds always goes through, even above a lowered quota.
public struct SyncQuota: Sendable, Equatable {
    public var rows: Int64
    public var bytes: Int64

    public init(rows: Int64, bytes: Int64) {
        self.rows = rows
        self.bytes = bytes
    }

    /// No limit: for callers that enforce none (tools, benchmarks of raw store speed).
    public static let unlimited = SyncQuota(rows: .max, bytes: .max)
}

/// The quota of each synced collection; `tandem serve --quota-*` sets them.
public struct SyncQuotas: Sendable, Equatable {
    /// Redo nodes the account pushed: a busy person makes a few thousand a year.
    public var nodes: SyncQuota
    public var contacts: SyncQuota
    public var taskPresets: SyncQuota
    /// Chat history records (issue 48 item 1): one per message, a few hundred bytes each.
    public var chatHistory: SyncQuota

    public init(
        nodes: SyncQuota = SyncQuota(rows: 1_000_000, bytes: 1 << 30),
        contacts: SyncQuota = SyncQuota(rows: 100_000, bytes: 64 << 20),
        taskPresets: SyncQuota = SyncQuota(rows: 10_000, bytes: 16 << 20),
        chatHistory: SyncQuota = SyncQuota(rows: 2_000_000, bytes: 2 << 30)
    ) {
        self.nodes = nodes
        self.contacts = contacts
        self.taskPresets = taskPresets
        self.chatHistory = chatHistory
    }

    public static let unlimited = SyncQuotas(
        nodes: .unlimited, contacts: .unlimited, taskPresets: .unlimited, chatHistory: .unlimited)
}

/// What one account holds in one collection (`sync_usage`), and the check of a write against
/// its quota; both backends keep the row in the write's transaction.
struct SyncUsage: Sendable, Equatable {
    /// The `collection` column: `nodes`, or a sealed collection's raw value.
    static let nodes = "nodes"

    var rows: Int64
    var bytes: Int64

    /// Refuses a write that adds `rows` and `bytes` (either may be negative) when it grows a
    /// measure past `quota`.
    func check(adding rows: Int64, bytes: Int64, quota: SyncQuota, collection: String) throws(ServerStoreError) {
        let newRows = self.rows + rows
        let newBytes = self.bytes + bytes
        if rows > 0, newRows > quota.rows {
            throw .quotaExceeded(
                "\(collection): this account may keep \(quota.rows) rows; the write would make \(newRows)")
        }
        if bytes > 0, newBytes > quota.bytes {
            throw .quotaExceeded(
                "\(collection): this account may keep \(quota.bytes) bytes; the write would make \(newBytes)")
        }
    }
}

extension SyncStore {
    /// A push with no quota (tools and tests of other rules).
    public func appendRedoNodes(_ drafts: [RedoNodeDraft], userID: AccountID, now: UnixMillis) async throws
        -> [RedoNodeOutcome]
    {
        try await appendRedoNodes(drafts, userID: userID, now: now, quota: .unlimited)
    }

    /// A put with no quota (tools and tests of other rules).
    public func putSealedRecords(_ collection: SealedRecordCollection, _ drafts: [SealedRecordDraft], userID: AccountID)
        async throws -> SealedRecordPutOutcome
    {
        try await putSealedRecords(collection, drafts, userID: userID, quota: .unlimited)
    }
}
