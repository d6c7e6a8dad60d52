import Foundation
public import Logging
import NIOCore
import PostgresNIO
public import ServiceLifecycle
public import TandemAPI
public import TandemBasics

/// The PostgreSQL backend through PostgresNIO's `PostgresClient` pool, for several stateless
/// `tandem serve` instances on one database. Same tables and columns as the SQLite backend.
///
/// Its ``services`` (the pool and the relay's group committer) must be running — in the
/// application's service group, or through ``ServerStore/withServices(_:)`` — for any query.
/// Every query goes through the ``PostgresDatabase`` choke points (deadline, metrics,
/// migrations); ``prepare()`` brings the schema up to date before the server listens.
public struct PostgresServerStore: ServerStore {
    let database: PostgresDatabase
    let logger: Logger
    /// Stores relay submissions in groups (issue 11 "Figures").
    let committer: KasiaCommitter

    /// The pool, then the relay's group committer: a service group shuts them down in reverse
    /// order, so the committer drains while the pool still answers.
    public var services: [any Service] { [database.service, committer] }

    /// How long opening one connection may take (issue 14 audit: an unreachable database must
    /// not hold a request; the store deadline bounds each call on top of this).
    static let connectTimeout: Duration = .seconds(3)
    /// The pool's timers cost memory for as long as they were set, even when cancelled: each
    /// one is a task sleeping on the clock, and a cancelled `Task.sleep` keeps its task and its
    /// dispatch timer until the deadline it was given (swiftlang/swift#60441). PostgresNIO's
    /// defaults set two on every connection that goes back to the pool — a keep-alive (30 s)
    /// and, on connections above the minimum, an idle timeout (60 s) — and the next lease
    /// cancels both. At relay-submit saturation that held tens of thousands of them, 70 MiB
    /// of RSS that took over a minute to level off (RELIABILITY.md, "Session 7: PostgreSQL
    /// relay-submit memory"). So: no keep-alive (a connection the network dropped silently fails
    /// its next query, which answers 503, and the pool replaces it; a closed one the pool sees
    /// at once; and idle connections above the minimum close after 10 s anyway),
    /// two connections that never idle out, so the serial group commit and light traffic set no
    /// timer at all, and a short idle timeout, so what the burst connections set lives 10 s.
    static let minimumConnections = 2
    static let connectionIdleTimeout: Duration = .seconds(10)
    /// How long any one database call may take before the request answers 503.
    public static let operationTimeout: Duration = .seconds(5)

    /// A store on the database at `url`; `activity` counts its calls in flight (`/metrics`), and
    /// each call is bounded by ``operationTimeout`` on `clock`.
    public init(
        url: String, logger: Logger, activity: StoreActivity = StoreActivity(), clock: any WallClock = SystemClock()
    ) throws {
        let client = PostgresClient(configuration: try Self.configuration(from: url), backgroundLogger: logger)
        let deadline = StoreDeadline(
            timeout: Self.operationTimeout, clock: clock, isUnavailable: Self.isConnectionFailure)
        database = PostgresDatabase(
            client: client, policy: StorePolicy(activity: activity, deadline: deadline), logger: logger)
        self.logger = logger
        let batch = PostgresKasiaBatch(database: database, logger: logger)
        committer = KasiaCommitter(name: "relay submissions") { entries in await batch.commit(entries) }
    }

    public var activity: StoreActivity { database.policy.activity }

    /// `postgres://user[:password]@host[:port]/database[?sslmode=disable]`.
    static func configuration(from url: String) throws -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url),
            components.scheme == "postgres" || components.scheme == "postgresql",
            let host = components.host, !host.isEmpty, let user = components.user
        else { throw ServerStoreError.invalidDatabaseURL(URLRedaction.redact(url)) }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: database.isEmpty ? nil : database, tls: .disable)
        configuration.options.connectTimeout = connectTimeout
        configuration.options.minimumConnections = minimumConnections
        configuration.options.connectionIdleTimeout = connectionIdleTimeout
        configuration.options.keepAliveBehavior = nil
        return configuration
    }

    /// Errors that mean "the database cannot be reached", not "this query is wrong".
    public static func isConnectionFailure(_ error: any Error) -> Bool {
        if let error = error as? PostgresTransactionError {
            return (error.beginError ?? error.closureError).map(isConnectionFailure) ?? false
        }
        guard let psql = error as? PSQLError else { return error is ChannelError || error is IOError }
        let failures: [PSQLError.Code] = [
            .connectionError, .serverClosedConnection, .clientClosedConnection, .poolClosed, .uncleanShutdown,
        ]
        return failures.contains(psql.code)
    }

    public func ping() async throws {
        try await database.query("SELECT 1", logger: logger)
    }

    /// Empties every table: for test suites that share one database.
    public func truncateAll() async throws {
        try await database.query(
            "TRUNCATE users, session, account, auth_user, kasia_tx, kasia_chain, device_key, redo_node, redo_task_access, redo_feed, contact_record, task_preset_record, chat_history_record, sync_usage, task_invitation, share_trust",
            logger: logger)
        try await database.query("UPDATE sync_clock SET last = 0", logger: logger)
        try await database.query("UPDATE kasia_clock SET last = 0", logger: logger)
    }

    /// Runs the migrations if this process has not yet.
    public func migrate() async throws {
        try await database.migrate()
    }

    public func prepare() async throws { try await migrate() }

    public func createUser(_ user: AuthUser, account: CredentialAccount, profile: ChatProfile) async throws {
        let keys = try StoreCoding.encodeKeys(profile.publicKeys)
        do {
            try await database.withTransaction(logger: logger) { connection in
                try await connection.query(
                    """
                    INSERT INTO auth_user (id, name, email, email_verified, image, created_at, updated_at, username, display_username)
                    VALUES (\(user.id), \(user.name), \(user.email), \(user.emailVerified), \(user.image),
                            \(user.createdAt.storeMillis), \(user.updatedAt.storeMillis), \(user.username), \(user.displayUsername))
                    """, logger: logger)
                try await connection.query(
                    """
                    INSERT INTO account (id, account_id, provider_id, user_id, password, created_at, updated_at)
                    VALUES (\(account.id), \(account.accountId), \(CredentialAccount.providerID), \(account.userID.rawValue),
                            \(account.passwordHash), \(account.createdAt.rawValue), \(account.updatedAt.rawValue))
                    """, logger: logger)
                try await connection.query(
                    """
                    INSERT INTO users (user_id, display_name, kaspa_address, public_keys, updated_at)
                    VALUES (\(profile.userId), \(profile.displayName), \(profile.kaspaAddress), \(keys), \(profile.updatedAt.storeMillis))
                    """, logger: logger)
            }
        } catch let error as PostgresTransactionError {
            throw Self.translate(error.closureError ?? error, user: user)
        } catch {
            throw Self.translate(error, user: user)
        }
    }

    /// Unique violations (SQLSTATE 23505) become the store's domain errors.
    private static func translate(_ error: any Error, user: AuthUser) -> any Error {
        guard let psql = error as? PSQLError, psql.serverInfo?[.sqlState] == "23505" else { return error }
        let constraint = psql.serverInfo?[.constraintName] ?? ""
        if constraint.contains("username") { return ServerStoreError.usernameTaken(user.username ?? "") }
        if constraint.contains("email") { return ServerStoreError.emailTaken(user.email) }
        return ServerStoreError.userIDTaken(user.id)
    }

    public func user(id: AccountID) async throws -> AuthUser? {
        try await fetchUser("SELECT \(unescaped: Self.userColumns) FROM auth_user WHERE id = \(id.rawValue)")
    }

    public func user(username: String) async throws -> AuthUser? {
        try await fetchUser("SELECT \(unescaped: Self.userColumns) FROM auth_user WHERE username = \(username)")
    }

    public func user(email: String) async throws -> AuthUser? {
        try await fetchUser("SELECT \(unescaped: Self.userColumns) FROM auth_user WHERE email = \(email)")
    }

    private static let userColumns =
        "id, name, email, email_verified, image, created_at, updated_at, username, display_username"

    private func fetchUser(_ query: PostgresQuery) async throws -> AuthUser? {
        let rows = try await database.query(query, logger: logger)
        for (id, name, email, verified, image, created, updated, username, display) in try rows.decode(
            (String, String, String, Bool, String?, Int64, Int64, String?, String?).self)
        {
            return AuthUser(
                id: id, name: name, email: email, emailVerified: verified, image: image,
                createdAt: Date(storeMillis: created), updatedAt: Date(storeMillis: updated), username: username,
                displayUsername: display)
        }
        return nil
    }

    public func credentialAccount(userID: AccountID) async throws -> CredentialAccount? {
        let rows = try await database.query(
            """
            SELECT id, account_id, user_id, password, created_at, updated_at FROM account
            WHERE user_id = \(userID.rawValue) AND provider_id = \(CredentialAccount.providerID) AND password IS NOT NULL
            """, logger: logger)
        for (id, accountID, user, password, created, updated) in try rows.decode(
            (String, String, String, String, Int64, Int64).self)
        {
            return CredentialAccount(
                id: id, accountId: accountID, userID: AccountID(user), passwordHash: password,
                createdAt: UnixMillis(created), updatedAt: UnixMillis(updated))
        }
        return nil
    }

    public func createSession(_ session: StoredSession) async throws {
        try await database.query(
            """
            INSERT INTO session (id, token_hash, user_id, expires_at, created_at, updated_at, ip_address, user_agent, remember_me)
            VALUES (\(session.id.rawValue), \(session.tokenHash.hex), \(session.userID.rawValue), \(session.expiresAt.rawValue),
                    \(session.createdAt.rawValue), \(session.updatedAt.rawValue), \(session.ipAddress), \(session.userAgent),
                    \(session.rememberMe))
            """, logger: logger)
    }

    public func session(tokenHash: SessionTokenHash) async throws -> StoredSession? {
        let rows = try await database.query(
            """
            SELECT id, token_hash, user_id, expires_at, created_at, updated_at, ip_address, user_agent, remember_me
            FROM session WHERE token_hash = \(tokenHash.hex)
            """, logger: logger)
        for (id, hash, user, expires, created, updated, ip, agent, remember) in try rows.decode(
            (String, String, String, Int64, Int64, Int64, String?, String?, Bool).self)
        {
            return StoredSession(
                id: SessionID(id), tokenHash: SessionTokenHash(hex: hash), userID: AccountID(user),
                expiresAt: UnixMillis(expires), createdAt: UnixMillis(created),
                updatedAt: UnixMillis(updated), ipAddress: ip, userAgent: agent, rememberMe: remember)
        }
        return nil
    }

    /// Both rows in one round trip: a join on the session's token hash, as a prepared statement
    /// (`SessionWithUserStatement`).
    ///
    /// PostgresNIO keeps a statement's failed preparation, or a preparation the server has since
    /// dropped (a pooler in transaction mode, `DISCARD ALL`, a column type changed by a newer
    /// instance's migration), for the life of the connection. So a server error from the
    /// prepared path is answered by the same SQL as an unnamed statement, as before issue 49.
    public func sessionWithUser(tokenHash: SessionTokenHash) async throws -> SessionWithUser? {
        let statement = SessionWithUserStatement(tokenHash: tokenHash.hex)
        do {
            return try await database.execute(statement, logger: logger).first
        } catch let error as PSQLError where error.code == .server {
            logger.warning("prepared session read failed; reading unprepared", metadata: ["error": "\(error)"])
            let query = PostgresQuery(unsafeSQL: SessionWithUserStatement.sql, binds: try statement.makeBindings())
            return try await database.query(query, logger: logger).first.map(statement.decodeRow)
        }
    }

    /// Always nil: another instance may refresh or delete a session at any time, so every
    /// get-session reads its rows.
    public var rowGeneration: UInt64? { nil }

    public func refreshSession(id: SessionID, expiresAt: UnixMillis, updatedAt: UnixMillis) async throws {
        try await database.query(
            """
            UPDATE session SET expires_at = \(expiresAt.rawValue), updated_at = \(updatedAt.rawValue) WHERE id = \(id.rawValue)
            """, logger: logger)
    }

    public func deleteSession(id: SessionID) async throws {
        try await database.query("DELETE FROM session WHERE id = \(id.rawValue)", logger: logger)
    }

    public func profile(userID: AccountID) async throws -> ChatProfile? {
        let rows = try await database.query(
            """
            SELECT user_id, display_name, kaspa_address, public_keys, updated_at FROM users WHERE user_id = \(userID.rawValue)
            """, logger: logger)
        for (user, name, address, keys, updated) in try rows.decode((String, String, String?, String, Int64).self) {
            return ChatProfile(
                userId: user, displayName: name, kaspaAddress: address, publicKeys: try StoreCoding.decodeKeys(keys),
                updatedAt: Date(storeMillis: updated))
        }
        return nil
    }

    public func updateProfile(_ profile: ChatProfile) async throws {
        let keys = try StoreCoding.encodeKeys(profile.publicKeys)
        let rows = try await database.query(
            """
            UPDATE users SET display_name = \(profile.displayName), kaspa_address = \(profile.kaspaAddress),
                public_keys = \(keys), updated_at = \(profile.updatedAt.storeMillis)
            WHERE user_id = \(profile.userId) RETURNING user_id
            """, logger: logger)
        for _ in try rows.decode(String.self) { return }
        throw ServerStoreError.profileMissing(userID: profile.userId)
    }
}
