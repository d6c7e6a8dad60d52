import Foundation
import GRDB
public import TandemAPI
public import TandemBasics

/// Account management on SQLite (issue 13): session lists and revocation, user and password
/// updates, and delete-user. Every write updates the row cache in the same call, after the
/// commit, so the next read of this process never answers a revoked session.
extension SQLiteServerStore {
    public func sessions(userID: AccountID) async throws -> [StoredSession] {
        try readNow { db in
            try Row.fetchAll(
                db, sql: "SELECT * FROM session WHERE user_id = ? ORDER BY created_at, id", arguments: [userID.rawValue]
            ).map(Self.session(from:))
        }
    }

    public func deleteSessions(userID: AccountID, keeping: SessionID?) async throws {
        let deleted = try await database.write { db in
            let ids = try String.fetchAll(
                db, sql: "SELECT id FROM session WHERE user_id = ? AND id IS NOT ?",
                arguments: [userID.rawValue, keeping?.rawValue])
            try db.execute(
                sql: "DELETE FROM session WHERE user_id = ? AND id IS NOT ?",
                arguments: [userID.rawValue, keeping?.rawValue])
            return ids.map(SessionID.init)
        }
        cache.removeSessions(ids: deleted)
    }

    public func updateUser(_ user: AuthUser) async throws {
        try await database.write { db in
            if let username = user.username,
                try Row.fetchOne(
                    db, sql: "SELECT 1 FROM auth_user WHERE username = ? AND id <> ?", arguments: [username, user.id])
                    != nil
            {
                throw ServerStoreError.usernameTaken(username)
            }
            try db.execute(
                sql: """
                    UPDATE auth_user SET name = ?, image = ?, username = ?, display_username = ?, updated_at = ?
                    WHERE id = ?
                    """,
                arguments: [
                    user.name, user.image, user.username, user.displayUsername, user.updatedAt.storeMillis, user.id,
                ])
            if db.changesCount == 0 { throw ServerStoreError.userMissing(userID: user.id) }
        }
        var stored = user
        stored.createdAt = Date(storeMillis: user.createdAt.storeMillis)
        stored.updatedAt = Date(storeMillis: user.updatedAt.storeMillis)
        cache.store(stored)
    }

    public func updatePassword(userID: AccountID, passwordHash: String, updatedAt: UnixMillis) async throws {
        try await database.write { db in
            try db.execute(
                sql: "UPDATE account SET password = ?, updated_at = ? WHERE user_id = ? AND provider_id = ?",
                arguments: [passwordHash, updatedAt.rawValue, userID.rawValue, CredentialAccount.providerID])
            if db.changesCount == 0 { throw ServerStoreError.userMissing(userID: userID.rawValue) }
        }
    }

    public func deleteUser(id: AccountID) async throws {
        let sessions = try await database.write { db in
            let ids = try String.fetchAll(db, sql: "SELECT id FROM session WHERE user_id = ?", arguments: [id.rawValue])
            // Every row the user owns goes with it (each child table's ON DELETE CASCADE); the
            // nodes of tasks nobody can read any more have no owner row, so they are purged here.
            try db.execute(sql: "DELETE FROM auth_user WHERE id = ?", arguments: [id.rawValue])
            try db.execute(sql: "DELETE FROM redo_node WHERE task_id NOT IN (SELECT task_id FROM redo_task_access)")
            return ids.map(SessionID.init)
        }
        cache.removeSessions(ids: sessions)
        cache.removeUser(id: id)
    }
}
