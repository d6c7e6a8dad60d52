public import Foundation
import Logging
import PostgresNIO
public import TandemAPI

/// Account management on PostgreSQL (issue 13). Nothing is cached per instance, so a session
/// revoked through one instance resolves to nothing on every other at once.
extension PostgresServerStore {
    public func sessions(userID: AccountID) async throws -> [StoredSession] {
        let rows = try await database.query(
            """
            SELECT id, token_hash, user_id, expires_at, created_at, updated_at, ip_address, user_agent, remember_me
            FROM session WHERE user_id = \(userID.rawValue) ORDER BY created_at, id
            """, logger: logger)
        var out: [StoredSession] = []
        for try await (id, hash, user, expires, created, updated, ip, agent, remember) in rows.decode(
            (String, String, String, Int64, Int64, Int64, String?, String?, Bool).self)
        {
            out.append(
                StoredSession(
                    id: SessionID(id), tokenHash: SessionTokenHash(hex: hash), userID: AccountID(user),
                    expiresAt: Date(storeMillis: expires), createdAt: Date(storeMillis: created),
                    updatedAt: Date(storeMillis: updated), ipAddress: ip, userAgent: agent, rememberMe: remember))
        }
        return out
    }

    public func deleteSessions(userID: AccountID, keeping: SessionID?) async throws {
        try await database.query(
            "DELETE FROM session WHERE user_id = \(userID.rawValue) AND id IS DISTINCT FROM \(keeping?.rawValue)",
            logger: logger)
    }

    public func updateUser(_ user: AuthUser) async throws {
        do {
            let rows = try await database.query(
                """
                UPDATE auth_user SET name = \(user.name), image = \(user.image), username = \(user.username),
                    display_username = \(user.displayUsername), updated_at = \(user.updatedAt.storeMillis)
                WHERE id = \(user.id) RETURNING id
                """, logger: logger)
            for try await _ in rows.decode(String.self) { return }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw ServerStoreError.usernameTaken(user.username ?? "")
        }
        throw ServerStoreError.userMissing(userID: user.id)
    }

    public func updatePassword(userID: AccountID, passwordHash: String, updatedAt: Date) async throws {
        let rows = try await database.query(
            """
            UPDATE account SET password = \(passwordHash), updated_at = \(updatedAt.storeMillis)
            WHERE user_id = \(userID.rawValue) AND provider_id = \(CredentialAccount.providerID) RETURNING id
            """, logger: logger)
        for try await _ in rows.decode(String.self) { return }
        throw ServerStoreError.userMissing(userID: userID.rawValue)
    }

    public func deleteUser(id: AccountID) async throws {
        let logger = logger
        try await database.withTransaction(logger: logger) { connection in
            try await Self.deleteUserRows(connection, userID: id.rawValue, logger: logger)
        }
    }

    /// The one list of what delete-user removes, children first (issue 13 item 3); the same
    /// tables as `SQLiteServerStore.deleteUserRows`. The "no row left" test reads every table
    /// of the schema, so a table added without joining this list fails it.
    static func deleteUserRows(_ connection: PostgresConnection, userID: String, logger: Logger) async throws {
        try await deleteSyncRows(connection, userID: userID, logger: logger)
        try await connection.query("DELETE FROM session WHERE user_id = \(userID)", logger: logger)
        try await connection.query("DELETE FROM account WHERE user_id = \(userID)", logger: logger)
        try await connection.query("DELETE FROM users WHERE user_id = \(userID)", logger: logger)
        try await connection.query("DELETE FROM auth_user WHERE id = \(userID)", logger: logger)
    }
}
