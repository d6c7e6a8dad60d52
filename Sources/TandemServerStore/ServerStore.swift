import Foundation
public import ServiceLifecycle
public import TandemAPI
public import TandemBasics

/// Everything the server keeps, in three parts with one protocol each — accounts, the Kasia
/// relay and chain index, and the sync of tasks and contacts — so a controller names only the
/// part it uses.
///
/// Two backends (SQLite through GRDB, PostgreSQL through PostgresNIO) implement all three and
/// pass the same contract suite; each runs every database call through its choke points
/// (`SQLiteDatabase`, `PostgresDatabase`: counted, and on PostgreSQL bounded in time), so a new
/// method touches only its protocol and the two backends.
public protocol ServerStore: AccountStore, RelayStore, SyncStore {
    /// A trivial query, for `/health`'s readiness answer: returns once the store can answer.
    func ping() async throws

    /// Brings the schema up to date; the server runs it once before it listens. SQLite migrates
    /// when the file is opened; PostgreSQL here (and, if the database was unreachable at
    /// start-up, on the first call that reaches it).
    func prepare() async throws

    /// What must run for the store to answer (a connection pool, the relay's group committer),
    /// in this order: the application's service group runs them and shuts them down in reverse.
    var services: [any Service] { get }
}

extension ServerStore {
    /// Runs the store's ``services`` until the calling task is cancelled: for tools and tests
    /// that use a store without an application.
    public func runServices() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services { group.addTask { try await service.run() } }
            try await group.waitForAll()
        }
    }

    /// Runs `body` while the store's ``services`` run, then stops them.
    public func withServices<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await runServices() }
            defer { group.cancelAll() }
            return try await body()
        }
    }
}

/// Auth users, credential accounts, sessions and chat profiles. Writes keep the invariants:
/// usernames and e-mails are unique (already lower-cased by the caller), a user and its account
/// and profile appear together.
public protocol AccountStore: Sendable {
    /// Inserts a user with its credential account and chat profile in one transaction.
    /// Throws `ServerStoreError.usernameTaken` / `.emailTaken` on a unique clash.
    func createUser(_ user: AuthUser, account: CredentialAccount, profile: ChatProfile) async throws
    func user(id: AccountID) async throws -> AuthUser?
    func user(username: String) async throws -> AuthUser?
    func user(email: String) async throws -> AuthUser?
    func credentialAccount(userID: AccountID) async throws -> CredentialAccount?

    func createSession(_ session: StoredSession) async throws
    func session(tokenHash: SessionTokenHash) async throws -> StoredSession?
    /// The session with `tokenHash` and its user's row, read together: what resolving a cookie
    /// needs, in one read where the backend can (issue 49 item 6). nil when no session has the
    /// hash; `user` is nil when the session's user row is gone.
    func sessionWithUser(tokenHash: SessionTokenHash) async throws -> SessionWithUser?
    /// Moves a session's expiry (sliding refresh, §6).
    func refreshSession(id: SessionID, expiresAt: UnixMillis, updatedAt: UnixMillis) async throws
    /// Deletes one session; deleting a missing one is not an error.
    func deleteSession(id: SessionID) async throws
    /// A number that changes whenever a session row is refreshed or deleted or a user row
    /// changes or goes, for a backend whose process makes every such change itself (SQLite: the
    /// server is its file's only writer); nil when rows can change elsewhere (PostgreSQL behind
    /// several instances). Anything derived from session and user rows read after the
    /// generation was `g` is still exact while the generation is `g`. Read synchronously: it
    /// is checked before each remembered get-session answer is used (`AuthController.getSession`,
    /// `SessionAnswers`).
    var rowGeneration: UInt64? { get }

    func profile(userID: AccountID) async throws -> ChatProfile?
    /// Replaces the profile of `profile.userId`, which must exist.
    func updateProfile(_ profile: ChatProfile) async throws

    // MARK: Account management (issue 13)

    /// Every session row of `userID`, expired ones included, oldest first.
    func sessions(userID: AccountID) async throws -> [StoredSession]
    /// Deletes every session of `userID` except `keeping` (revoke-sessions,
    /// revoke-other-sessions, change-password). A deleted session resolves to nothing at once,
    /// on every instance: no backend may answer a cached copy afterwards.
    func deleteSessions(userID: AccountID, keeping: SessionID?) async throws
    /// Replaces `name`, `image`, `username`, `displayUsername` and `updatedAt` of `user.id`
    /// (update-user). Throws `ServerStoreError.usernameTaken` when another user has the name.
    func updateUser(_ user: AuthUser) async throws
    /// Replaces the credential account's scrypt hash (change-password).
    func updatePassword(userID: AccountID, passwordHash: String, updatedAt: UnixMillis) async throws
    /// Removes every row that belongs to the user, in every table, in one transaction
    /// (delete-user): the child tables follow `auth_user` by `ON DELETE CASCADE`, and the nodes
    /// of tasks nobody can read any more are purged with them.
    func deleteUser(id: AccountID) async throws
}

/// The Kasia relay's rows (issue 11) and the chain index that follows a Kaspa node (issue 25).
public protocol RelayStore: Sendable {
    /// The database calls in flight now, counted at the backend's choke points (`/metrics`), and
    /// the reads among them that the chain ingester lets finish before each commit.
    var activity: StoreActivity { get }

    /// Stores a relayed transaction once per `txID`. Its position (and, while it is only
    /// relayed, its block time) is `max(now, last + 1)`, assigned inside the committing
    /// transaction while every other writer waits, so positions are unique and increase in
    /// commit order: a reader paging by "max position seen" never misses a row (ARCHITECTURE.md
    /// "Cursors that never skip a row"). A transaction the chain ingester stored first is
    /// answered as it is stored.
    func appendKasiaRecord(_ draft: KasiaRecordDraft, now: UnixMillis) async throws -> KasiaAppendOutcome
    func kasiaRecord(txID: String) async throws -> KasiaRecord?
    /// One indexer page: rows of `query` with `block_time >= from`, ascending by block time
    /// (then tx id), at most `limit`. A row whose payload is over ``KasiaPayloadLimit`` (kept
    /// before the limit, issue 50 item 4) is not served, so an answer stays near 1 MB.
    func kasiaRecords(_ query: KasiaIndexQuery, from blockTime: UnixMillis, limit: Int) async throws -> [KasiaRecord]
    /// Rows with `position > after`, ascending, at most `limit`; only those `watch` matches
    /// when given (stream replay), every row otherwise (the fan-out feed); a payload over
    /// ``KasiaPayloadLimit`` is skipped as above.
    func kasiaRecords(after position: Int64, watching watch: KasiaWatch?, limit: Int) async throws -> [KasiaRecord]
    /// The newest position, or nil while no row exists.
    func latestKasiaPosition() async throws -> Int64?
    func kasiaCounts() async throws -> KasiaCounts
    /// Calls `onCommit` whenever another process commits a Kasia row, until cancelled
    /// (PostgreSQL LISTEN/NOTIFY). The SQLite file has one writer process, so there it only
    /// waits for cancellation.
    func listenForKasiaCommits(_ onCommit: @escaping @Sendable () async -> Void) async throws

    /// The chain ingester's stored cursor, or nil before its first page.
    func kasiaChainCursor() async throws -> KasiaChainCursor?
    /// Applies `page` in one transaction: the removed blocks' rows leave the reads (or return
    /// to unaccepted when they were relayed), the accepted rows are inserted or moved by tx id,
    /// each changed row gets a new position, and the cursor moves to `page.to`. Throws
    /// ``ServerStoreError/chainCursorMoved(expected:found:)``, changing nothing, when the
    /// stored cursor is not `page.from`.
    func applyKasiaChainPage(_ page: KasiaChainPage, now: UnixMillis) async throws -> KasiaChainApplied
    /// Runs `body` while this process is the database's one chain ingester, waiting for the
    /// role first; cancels `body` if the role is lost. PostgreSQL: a session advisory lock on a
    /// connection held for the purpose, tried every `retry` (it is freed when its holder's
    /// connection ends). SQLite: one process owns the file, so `body` runs at once.
    func asKasiaIngester(retry: Duration, _ body: @escaping @Sendable () async throws -> Void) async throws
}

/// Sync of tasks and contacts (issue 12).
///
/// Every feed position (`seq`) comes from one counter advanced inside the committing
/// transaction while other sync writers wait, so positions increase in commit order and a
/// reader paging by "last seq seen" never skips a row (ARCHITECTURE.md "Cursors that never
/// skip a row").
public protocol SyncStore: Sendable {
    /// Whether the server must queue this store's sync writes in process (`SyncWriteGate`):
    /// true where concurrent writers would each wait for the clock inside the database holding
    /// a pooled connection and running down the deadline (PostgreSQL's row lock); false where
    /// the store already orders its writers without holding anything scarce (SQLite's single
    /// GRDB writer), as the queue there only costs throughput (RELIABILITY.md, session 7).
    var queuesSyncWrites: Bool { get }
    /// Binds `publicKey` to `userID` unless another account holds it or it was revoked.
    func registerDeviceKey(publicKey: String, userID: AccountID, now: UnixMillis) async throws -> DeviceKeyOutcome
    /// The account's keys, revoked ones included, oldest first.
    func deviceKeys(userID: AccountID) async throws -> [StoredDeviceKey]
    /// Revokes one of the account's keys (idempotent); nil when the account has no such key.
    func revokeDeviceKey(publicKey: String, userID: AccountID, now: UnixMillis) async throws -> StoredDeviceKey?
    /// Stores standalone-valid nodes pushed by `userID` in one transaction, in order, each
    /// checked against the store (task access, parents, one CREATE per task); one outcome each.
    /// The nodes the push stores count against the pusher's `quota` (all or nothing).
    func appendRedoNodes(_ drafts: [RedoNodeDraft], userID: AccountID, now: UnixMillis, quota: SyncQuota)
        async throws -> [RedoNodeOutcome]
    /// The account's feed after `seq`, ascending, at most `limit` nodes.
    func redoNodes(userID: AccountID, after seq: Int64, limit: Int) async throws -> [StoredRedoNode]
    /// Adds `recipient` to the access list of a task `sharer` can read; the recipient's feed
    /// gets every stored node of the task, parents first. A recipient who has not accepted a
    /// share from `sharer` before gets an invitation instead (`.invited`); either way the sharer
    /// takes the recipient's shares without asking from then on.
    func shareRedoTask(taskID: String, sharer: AccountID, recipient: AccountID, now: UnixMillis) async throws
        -> TaskShareOutcome
    /// The invitations waiting for `recipient`, oldest first, at most `limit`.
    func taskInvitations(recipient: AccountID, limit: Int) async throws -> [StoredTaskInvitation]
    /// Accepts the invitation to `taskID`: the recipient reads the task (as a share would give
    /// it) and takes the sharer's shares without asking from then on.
    func acceptTaskInvitation(taskID: String, recipient: AccountID, now: UnixMillis) async throws
        -> TaskInvitationOutcome
    /// Declines the invitation to `taskID`: it is removed, and nothing else changes.
    func declineTaskInvitation(taskID: String, recipient: AccountID) async throws -> TaskInvitationOutcome
    /// Writes every record of one collection or none (compare-and-swap on each record's version).
    /// New records and larger boxes count against `quota` (all or nothing).
    func putSealedRecords(
        _ collection: SealedRecordCollection, _ drafts: [SealedRecordDraft], userID: AccountID, quota: SyncQuota
    ) async throws -> SealedRecordPutOutcome
    /// What the account holds in a collection (`SyncUsage.nodes` or a sealed collection's raw
    /// value): rows and bytes.
    func syncUsage(userID: AccountID, collection: String) async throws -> (rows: Int64, bytes: Int64)
    /// The account's records of one collection changed after `seq`, ascending, at most `limit`.
    func sealedRecords(_ collection: SealedRecordCollection, userID: AccountID, after seq: Int64, limit: Int)
        async throws -> [StoredSealedRecord]
}

/// Why a store write was refused.
public enum ServerStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case usernameTaken(String)
    case emailTaken(String)
    case userIDTaken(String)
    case profileMissing(userID: String)
    case userMissing(userID: String)
    /// Carries the URL with its credentials already redacted (`URLRedaction`).
    case invalidDatabaseURL(String)
    case corruptRow(table: String, reason: String)
    /// The database did not answer in time or could not be reached (HTTP 503).
    case unavailable(String)
    /// A sync write waited too long for the sync clock's lock, held by other writers: the
    /// database is up and busy (HTTP 429 `SYNC_BUSY`, never 503).
    case busy(String)
    /// Another chain ingester moved the cursor since this page was read.
    case chainCursorMoved(expected: String?, found: String?)
    /// A sync write would take the account past its quota (``SyncQuota``; HTTP 413
    /// `QUOTA_EXCEEDED`); nothing of it was written.
    case quotaExceeded(String)

    public var description: String {
        switch self {
        case .usernameTaken(let name): "username \(name) is already taken"
        case .emailTaken(let email): "e-mail \(email) is already registered"
        case .userIDTaken(let id): "user id \(id) already exists"
        case .profileMissing(let id): "no chat profile for user \(id)"
        case .userMissing(let id): "no user \(id)"
        case .invalidDatabaseURL(let url): "database URL \(URLRedaction.redact(url)) is not a postgres:// URL"
        case .corruptRow(let table, let reason): "table \(table): \(reason)"
        case .unavailable(let reason): "the database is unavailable: \(reason)"
        case .busy(let reason): "the database is busy: \(reason)"
        case .chainCursorMoved(let expected, let found):
            "the chain cursor moved: expected \(expected ?? "none"), found \(found ?? "none")"
        case .quotaExceeded(let reason): "quota exceeded: \(reason)"
        }
    }
}
