import Foundation
public import TandemAPI
public import TandemBasics

/// An `account` row with `providerId = "credential"`: the password lives here, never on the
/// user (betterauth-api.md §12).
public struct CredentialAccount: Sendable, Equatable {
    public var id: String
    public var accountId: String
    public var userID: AccountID
    /// `"<salthex>:<keyhex>"` scrypt hash (§7).
    public var passwordHash: String
    public var createdAt: UnixMillis
    public var updatedAt: UnixMillis

    public static let providerID = "credential"

    public init(
        id: String, accountId: String, userID: AccountID, passwordHash: String, createdAt: UnixMillis,
        updatedAt: UnixMillis
    ) {
        self.id = id
        self.accountId = accountId
        self.userID = userID
        self.passwordHash = passwordHash
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A `session` row. Only the token's hash is stored.
public struct StoredSession: Sendable, Equatable {
    public var id: SessionID
    public var tokenHash: SessionTokenHash
    public var userID: AccountID
    public var expiresAt: UnixMillis
    public var createdAt: UnixMillis
    public var updatedAt: UnixMillis
    public var ipAddress: String?
    public var userAgent: String?
    /// false for `rememberMe:false` sessions, which last one day and never slide (§6).
    public var rememberMe: Bool

    public init(
        id: SessionID, tokenHash: SessionTokenHash, userID: AccountID, expiresAt: UnixMillis, createdAt: UnixMillis,
        updatedAt: UnixMillis, ipAddress: String?, userAgent: String?, rememberMe: Bool
    ) {
        self.id = id
        self.tokenHash = tokenHash
        self.userID = userID
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.ipAddress = ipAddress
        self.userAgent = userAgent
        self.rememberMe = rememberMe
    }
}

/// A session row with its user's row (`AccountStore.sessionWithUser(tokenHash:)`).
public struct SessionWithUser: Sendable, Equatable {
    public var session: StoredSession
    /// nil when the user row is gone (the session then resolves to nothing).
    public var user: AuthUser?

    public init(session: StoredSession, user: AuthUser?) {
        self.session = session
        self.user = user
    }
}

extension SessionWithUser {
    /// The read behind ``AccountStore/sessionWithUser(tokenHash:)`` on both backends, with
    /// `placeholder` for the token hash (`?` on SQLite, `$1` on PostgreSQL): the session's nine
    /// columns, then the user's nine, NULL when the user row is gone.
    public static func selectSQL(placeholder: String) -> String {
        """
        SELECT s.id, s.token_hash, s.user_id, s.expires_at, s.created_at, s.updated_at, s.ip_address,
               s.user_agent, s.remember_me,
               u.id, u.name, u.email, u.email_verified, u.image, u.created_at, u.updated_at, u.username,
               u.display_username
        FROM session s LEFT JOIN auth_user u ON u.id = s.user_id
        WHERE s.token_hash = \(placeholder)
        """
    }
}
