public import Foundation
public import TandemAPI

/// Everything the server keeps: auth users, credential accounts, sessions and chat profiles.
///
/// One protocol, two backends (SQLite through GRDB, PostgreSQL through PostgresNIO); both pass
/// the same contract suite. Writes keep the invariants: usernames and e-mails are unique
/// (already lower-cased by the caller), a user and its account and profile appear together.
public protocol ServerStore: Sendable {
    /// Inserts a user with its credential account and chat profile in one transaction.
    /// Throws `ServerStoreError.usernameTaken` / `.emailTaken` on a unique clash.
    func createUser(_ user: AuthUser, account: CredentialAccount, profile: ChatProfile) async throws
    func user(id: UserID) async throws -> AuthUser?
    func user(username: String) async throws -> AuthUser?
    func user(email: String) async throws -> AuthUser?
    func credentialAccount(userID: UserID) async throws -> CredentialAccount?

    func createSession(_ session: StoredSession) async throws
    func session(tokenHash: SessionTokenHash) async throws -> StoredSession?
    /// Moves a session's expiry (sliding refresh, §6).
    func refreshSession(id: SessionID, expiresAt: Date, updatedAt: Date) async throws
    /// Deletes one session; deleting a missing one is not an error.
    func deleteSession(id: SessionID) async throws

    func profile(userID: UserID) async throws -> ChatProfile?
    /// Replaces the profile of `profile.userId`, which must exist.
    func updateProfile(_ profile: ChatProfile) async throws
}

/// Why a store write was refused.
public enum ServerStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    case usernameTaken(String)
    case emailTaken(String)
    case userIDTaken(String)
    case profileMissing(userID: String)
    case invalidDatabaseURL(String)
    case corruptRow(table: String, reason: String)

    public var description: String {
        switch self {
        case .usernameTaken(let name): "username \(name) is already taken"
        case .emailTaken(let email): "e-mail \(email) is already registered"
        case .userIDTaken(let id): "user id \(id) already exists"
        case .profileMissing(let id): "no chat profile for user \(id)"
        case .invalidDatabaseURL(let url): "database URL \(url) is not a postgres:// URL"
        case .corruptRow(let table, let reason): "table \(table): \(reason)"
        }
    }
}
