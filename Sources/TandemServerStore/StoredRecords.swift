import Foundation
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
