public import Foundation

/// The `session` object returned by get-session (betterauth-api.md §2), including the raw
/// session `token` exactly as BetterAuth returns it.
public struct AuthSession: Codable, Sendable, Equatable {
    public var id: String
    public var token: String
    public var userId: String
    public var expiresAt: Date
    public var createdAt: Date
    public var updatedAt: Date
    public var ipAddress: String?
    public var userAgent: String?

    public init(
        id: String, token: String, userId: String, expiresAt: Date, createdAt: Date, updatedAt: Date,
        ipAddress: String?, userAgent: String?
    ) {
        self.id = id
        self.token = token
        self.userId = userId
        self.expiresAt = expiresAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.ipAddress = ipAddress
        self.userAgent = userAgent
    }

    private enum CodingKeys: String, CodingKey {
        case id, token, userId, expiresAt, createdAt, updatedAt, ipAddress, userAgent
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(token, forKey: .token)
        try container.encode(userId, forKey: .userId)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(createdAt, forKey: .createdAt)
        try container.encode(updatedAt, forKey: .updatedAt)
        try container.encode(ipAddress, forKey: .ipAddress)
        try container.encode(userAgent, forKey: .userAgent)
    }
}

/// `GET /api/auth/get-session` body when signed in: `{ session, user }` (§3). Signed out is
/// the JSON literal `null`.
public struct SessionResponse: Codable, Sendable, Equatable {
    public var session: AuthSession
    public var user: AuthUser

    public init(session: AuthSession, user: AuthUser) {
        self.session = session
        self.user = user
    }
}
