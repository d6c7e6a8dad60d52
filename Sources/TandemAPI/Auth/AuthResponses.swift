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

    public init(status: String) { self.status = status }
}
