import Foundation
import Logging
import PostgresNIO
public import TandemAPI
public import TandemBasics

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
        for (id, hash, user, expires, created, updated, ip, agent, remember) in try rows.decode(
            (String, String, String, Int64, Int64, Int64, String?, String?, Bool).self)
        {
            out.append(
                StoredSession(
                    id: SessionID(id), tokenHash: SessionTokenHash(hex: hash), userID: AccountID(user),
                    expiresAt: UnixMillis(expires), createdAt: UnixMillis(created),
                    updatedAt: UnixMillis(updated), ipAddress: ip, userAgent: agent, rememberMe: remember))
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
            for _ in try rows.decode(String.self) { return }
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw ServerStoreError.usernameTaken(user.username ?? "")
        }
        throw ServerStoreError.userMissing(userID: user.id)
    }

    public func updatePassword(userID: AccountID, passwordHash: String, updatedAt: UnixMillis) async throws {
        let rows = try await database.query(
            """
            UPDATE account SET password = \(passwordHash), updated_at = \(updatedAt.rawValue)
            WHERE user_id = \(userID.rawValue) AND provider_id = \(CredentialAccount.providerID) RETURNING id
            """, logger: logger)
        for _ in try rows.decode(String.self) { return }
        throw ServerStoreError.userMissing(userID: userID.rawValue)
    }

    public func deleteUser(id: AccountID) async throws {
        let logger = logger
        try await database.withTransaction(logger: logger) { connection in
            // Under the sync clock's lock, as every sync write: no feed position is handed out
            // while the user's rows go. Every row the user owns goes with it (each child table's
            // ON DELETE CASCADE); the nodes of tasks nobody can read any more have no owner row.
            _ = try await Self.lockClock(connection, logger)
            try await connection.query("DELETE FROM auth_user WHERE id = \(id.rawValue)", logger: logger)
            try await connection.query(
                "DELETE FROM redo_node WHERE task_id NOT IN (SELECT task_id FROM redo_task_access)", logger: logger)
        }
    }
}
