/// `POST /api/auth/change-password` body (BetterAuth `update-user.ts`): the current password
/// is required; `revokeOtherSessions:true` ends every other session and starts a new one.
public struct ChangePasswordRequest: RequestBody {
    public var newPassword: String
    public var currentPassword: String
    public var revokeOtherSessions: Bool?

    public init(newPassword: String, currentPassword: String, revokeOtherSessions: Bool? = nil) {
        self.newPassword = newPassword
        self.currentPassword = currentPassword
        self.revokeOtherSessions = revokeOtherSessions
    }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case newPassword, currentPassword, revokeOtherSessions
    }

    public typealias Field = CodingKeys
}

/// `POST /api/auth/change-password` 200 body: `{ token, user }`; `token` is the new session's
/// token when other sessions were revoked, else `null`.
public struct ChangePasswordResponse: Codable, Sendable, Equatable {
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
