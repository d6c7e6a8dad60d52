/// `POST /api/auth/sign-up/email` 200 body: `{ token, user }` (betterauth-api.md §3).
public struct SignUpResponse: Codable, Sendable, Equatable {
    public var token: String?
    public var user: AuthUser

    public init(token: String?, user: AuthUser) {
        self.token = token
        self.user = user
    }

    private enum CodingKeys: String, CodingKey { case token, user }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(token, forKey: .token)
        try container.encode(user, forKey: .user)
    }
}

/// `POST /api/auth/sign-in/username` 200 body: `{ redirect, token, url?, user }` (§3);
/// `url` is absent unless a `callbackURL` was sent.
public struct SignInResponse: Codable, Sendable, Equatable {
    public var redirect: Bool
    public var token: String
    public var url: String?
    public var user: AuthUser

    public init(redirect: Bool, token: String, url: String?, user: AuthUser) {
        self.redirect = redirect
        self.token = token
        self.url = url
        self.user = user
    }
}

/// `POST /api/auth/sign-out` 200 body: `{ "success": true }` (§3).
public struct SignOutResponse: Codable, Sendable, Equatable {
    public var success: Bool

    public init(success: Bool) { self.success = success }
}

/// `GET /health` body.
public struct HealthResponse: Codable, Sendable, Equatable {
    public var status: String
    /// The chain index (issue 25), when the server follows a Kaspa node; absent otherwise.
    public var kaspa: HealthKaspa?

    public init(status: String, kaspa: HealthKaspa? = nil) {
        self.status = status
        self.kaspa = kaspa
    }
}

/// `/health`'s `"kaspa"` member: `{"node", "synced", "lagBlocks", "role", "error"}`, every
/// member written (`null` when unknown or none).
public struct HealthKaspa: Codable, Sendable, Equatable {
    /// The node in use; nil while none answers (or on a standby instance).
    public var node: String?
    /// The index has read the node's chain to its sink, and the node is synced.
    public var synced: Bool
    /// Blocks (DAA steps) the index is behind the node; nil while unknown.
    public var lagBlocks: UInt64?
    /// `ingester` on the instance that follows the node, `standby` on the others.
    public var role: String
    /// Why the last step failed (a node, the database), until the next one succeeds.
    public var error: String?

    public init(node: String?, synced: Bool, lagBlocks: UInt64?, role: String, error: String? = nil) {
        self.node = node
        self.synced = synced
        self.lagBlocks = lagBlocks
        self.role = role
        self.error = error
    }

    private enum CodingKeys: String, CodingKey { case node, synced, lagBlocks, role, error }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(node, forKey: .node)
        try container.encode(synced, forKey: .synced)
        try container.encode(lagBlocks, forKey: .lagBlocks)
        try container.encode(role, forKey: .role)
        try container.encode(error, forKey: .error)
    }
}
