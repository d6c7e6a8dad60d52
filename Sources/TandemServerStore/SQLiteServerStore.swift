public import Foundation
import GRDB
public import ServiceLifecycle
public import TandemAPI
public import TandemBasics

/// The default backend: one SQLite file in WAL mode through a GRDB `DatabasePool`, so reads
/// (get-session, the hot path) run concurrently with writes. Needs no set-up.
///
/// Reads are synchronous on the caller's thread: a WAL read of one indexed row takes
/// microseconds, far less than the two thread hops of GRDB's async read, which dominated
/// get-session (BENCHMARKS.md, issue 4). Writes stay async.
public struct SQLiteServerStore: ServerStore {
    let database: SQLiteDatabase
    let cache = SQLiteRowCache()
    /// Commits relay submissions in groups (issue 11 "Figures"); one of ``services``.
    let committer: KasiaCommitter

    /// Opens (creating if needed) `fileURL` and runs the migrations; the directory is 0700 and
    /// the database files 0600 (`ServerFiles`). The WAL is checkpointed beside the writer, at
    /// most once per `checkpointInterval` (``SQLiteCheckpointer``); nil leaves it to SQLite's
    /// default, in the commit that passes 1,000 WAL pages (the design before issue 49 item 5,
    /// kept for benchmarks' A/B).
    ///
    /// Every connection maps the first `memoryMapBytes` of the file (`PRAGMA mmap_size`): a
    /// read of a page that is not in the connection's own small cache then costs a memory access
    /// in the kernel's page cache, shared by every connection, instead of a `pread` copied into
    /// each one's cache (issue 49 item 6: a get-session whose rows nothing remembers). 0 reads
    /// through `pread` as SQLite does by default. The price of the map: an I/O error on a mapped
    /// page, or the file truncated by another program, stops the process with SIGBUS where
    /// `pread` would have returned an error; a server whose disk may fail that way can pass 0.
    public init(
        fileURL: URL, activity: StoreActivity = StoreActivity(), checkpointInterval: Duration? = .seconds(1),
        memoryMapBytes: Int = SQLiteServerStore.defaultMemoryMapBytes
    ) throws {
        try ServerFiles.prepareDatabaseFile(fileURL)
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        let autocheckpoint = checkpointInterval != nil
        configuration.prepareDatabase { db in
            if autocheckpoint {
                try db.execute(sql: "PRAGMA wal_autocheckpoint = \(SQLiteCheckpointer.backstopPages)")
            }
            try db.execute(sql: "PRAGMA mmap_size = \(max(0, memoryMapBytes))")
        }
        let pool = try DatabasePool(path: fileURL.path, configuration: configuration)
        try Self.migrator.migrate(pool)
        try ServerFiles.narrowDatabaseFiles(fileURL)
        let checkpointer = try checkpointInterval.map { try SQLiteCheckpointer(path: fileURL.path, interval: $0) }
        database = SQLiteDatabase(writer: pool, policy: StorePolicy(activity: activity), checkpointer: checkpointer)
        committer = KasiaCommitter(name: "relay submissions") { [database] entries in
            await SQLiteKasiaBatch.commit(entries, database: database)
        }
    }

    /// 1 GiB: address space, not memory (the pages are the kernel's page cache); SQLite caps it at
    /// its compile-time maximum (2 GiB in Debian's build), and reads past it go through `pread`.
    public static let defaultMemoryMapBytes = 1 << 30

    /// The relay's group committer, which must run for ``appendKasiaRecord(_:now:)`` to answer.
    public var services: [any Service] { [committer] }

    /// The calls in flight, counted at the choke points (`SQLiteDatabase`).
    public var activity: StoreActivity { database.policy.activity }

    /// Nothing to do: the file was migrated when it was opened.
    public func prepare() async throws {}

    /// A synchronous read on the calling thread (see the type's note).
    func readNow<T>(_ block: (Database) throws -> T) throws -> T {
        try database.read(block)
    }

    public func createUser(_ user: AuthUser, account: CredentialAccount, profile: ChatProfile) async throws {
        try await database.write { db in
            if try Row.fetchOne(db, sql: "SELECT 1 FROM auth_user WHERE id = ?", arguments: [user.id]) != nil {
                throw ServerStoreError.userIDTaken(user.id)
            }
            if let username = user.username,
                try Row.fetchOne(db, sql: "SELECT 1 FROM auth_user WHERE username = ?", arguments: [username]) != nil
            {
                throw ServerStoreError.usernameTaken(username)
            }
            if try Row.fetchOne(db, sql: "SELECT 1 FROM auth_user WHERE email = ?", arguments: [user.email]) != nil {
                throw ServerStoreError.emailTaken(user.email)
            }
            try db.execute(
                sql: """
                    INSERT INTO auth_user (id, name, email, email_verified, image, created_at, updated_at, username, display_username)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    user.id, user.name, user.email, user.emailVerified, user.image,
                    user.createdAt.storeMillis, user.updatedAt.storeMillis, user.username, user.displayUsername,
                ])
            try db.execute(
                sql: """
                    INSERT INTO account (id, account_id, provider_id, user_id, password, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    account.id, account.accountId, CredentialAccount.providerID, account.userID.rawValue,
                    account.passwordHash, account.createdAt.rawValue, account.updatedAt.rawValue,
                ])
            try db.execute(
                sql: """
                    INSERT INTO users (user_id, display_name, kaspa_address, public_keys, updated_at) VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [
                    profile.userId, profile.displayName, profile.kaspaAddress,
                    try StoreCoding.encodeKeys(profile.publicKeys), profile.updatedAt.storeMillis,
                ])
        }
    }

    public func user(id: AccountID) async throws -> AuthUser? {
        if let cached = cache.user(id: id) { return cached }
        let ticket = cache.fillTicket()
        let user = try await fetchUser(where: "id = ?", id.rawValue)
        if let user { cache.fill(user, ifUnchangedSince: ticket) }
        return user
    }

    public func user(username: String) async throws -> AuthUser? {
        try await fetchUser(where: "username = ?", username)
    }

    public func user(email: String) async throws -> AuthUser? {
        try await fetchUser(where: "email = ?", email)
    }

    private func fetchUser(where condition: String, _ value: String) async throws -> AuthUser? {
        try readNow { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM auth_user WHERE \(condition)"), arguments: [value])
                .map { row in
                    AuthUser(
                        id: row["id"], name: row["name"], email: row["email"], emailVerified: row["email_verified"],
                        image: row["image"], createdAt: Date(storeMillis: row["created_at"]),
                        updatedAt: Date(storeMillis: row["updated_at"]), username: row["username"],
                        displayUsername: row["display_username"])
                }
        }
    }

    public func credentialAccount(userID: AccountID) async throws -> CredentialAccount? {
        try readNow { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT * FROM account WHERE user_id = ? AND provider_id = ? AND password IS NOT NULL
                    """, arguments: [userID.rawValue, CredentialAccount.providerID])
            return row.map { row in
                CredentialAccount(
                    id: row["id"], accountId: row["account_id"], userID: AccountID(row["user_id"]),
                    passwordHash: row["password"], createdAt: UnixMillis(row["created_at"] as Int64),
                    updatedAt: UnixMillis(row["updated_at"] as Int64))
            }
        }
    }

    public func ping() async throws {
        try await database.asyncRead { db in _ = try Int.fetchOne(db, sql: "SELECT 1") }
    }

    public func createSession(_ session: StoredSession) async throws {
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO session (id, token_hash, user_id, expires_at, created_at, updated_at, ip_address, user_agent, remember_me)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    session.id.rawValue, session.tokenHash.hex, session.userID.rawValue,
                    session.expiresAt.rawValue, session.createdAt.rawValue, session.updatedAt.rawValue,
                    session.ipAddress, session.userAgent, session.rememberMe,
                ])
        }
        cache.store(session)
    }

    public func session(tokenHash: SessionTokenHash) async throws -> StoredSession? {
        if let cached = cache.session(tokenHash: tokenHash) { return cached }
        let ticket = cache.fillTicket()
        let session = try readSession(tokenHash: tokenHash)
        if let session { cache.fill(session, ifUnchangedSince: ticket) }
        return session
    }

    func readSession(tokenHash: SessionTokenHash) throws -> StoredSession? {
        try readNow { db in
            try Row.fetchOne(
                db.cachedStatement(sql: "SELECT * FROM session WHERE token_hash = ?"), arguments: [tokenHash.hex]
            ).map(Self.session(from:))
        }
    }

    static func session(from row: Row) -> StoredSession {
        StoredSession(
            id: SessionID(row["id"]), tokenHash: SessionTokenHash(hex: row["token_hash"]),
            userID: AccountID(row["user_id"]), expiresAt: UnixMillis(row["expires_at"] as Int64),
            createdAt: UnixMillis(row["created_at"] as Int64), updatedAt: UnixMillis(row["updated_at"] as Int64),
            ipAddress: row["ip_address"], userAgent: row["user_agent"], rememberMe: row["remember_me"])
    }

    /// The row cache's generation: every write to session and user rows goes through this
    /// store, which moves it in the same call.
    public var rowGeneration: UInt64? { cache.generation }

    public func refreshSession(id: SessionID, expiresAt: UnixMillis, updatedAt: UnixMillis) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE session SET expires_at = ?, updated_at = ? WHERE id = ?",
                arguments: [expiresAt.rawValue, updatedAt.rawValue, id.rawValue])
        }
        cache.refresh(id: id, expiresAt: expiresAt, updatedAt: updatedAt)
    }

    public func deleteSession(id: SessionID) async throws {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM session WHERE id = ?", arguments: [id.rawValue])
        }
        cache.removeSession(id: id)
    }

    public func profile(userID: AccountID) async throws -> ChatProfile? {
        let row = try readNow { db in
            try Row.fetchOne(db, sql: "SELECT * FROM users WHERE user_id = ?", arguments: [userID.rawValue])
        }
        guard let row else { return nil }
        return ChatProfile(
            userId: row["user_id"], displayName: row["display_name"], kaspaAddress: row["kaspa_address"],
            publicKeys: try StoreCoding.decodeKeys(row["public_keys"]), updatedAt: Date(storeMillis: row["updated_at"]))
    }

    public func updateProfile(_ profile: ChatProfile) async throws {
        let keys = try StoreCoding.encodeKeys(profile.publicKeys)
        try await database.write { db in
            try db.execute(
                sql: """
                    UPDATE users SET display_name = ?, kaspa_address = ?, public_keys = ?, updated_at = ? WHERE user_id = ?
                    """,
                arguments: [
                    profile.displayName, profile.kaspaAddress, keys, profile.updatedAt.storeMillis, profile.userId,
                ])
            if db.changesCount == 0 { throw ServerStoreError.profileMissing(userID: profile.userId) }
        }
    }
}
