/// `POST /api/auth/delete-user` body (BetterAuth `update-user.ts`). Tandem always requires
/// `password` (issue 13); `callbackURL` and `token` (e-mailed deletion links) are accepted
/// and ignored, since Tandem sends no e-mail.
public struct DeleteUserRequest: RequestBody {
    public var password: String?
    public var callbackURL: String?
    public var token: String?

    public init(password: String?, callbackURL: String? = nil, token: String? = nil) {
        self.password = password
        self.callbackURL = callbackURL
        self.token = token
    }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable { case password, callbackURL, token }

    public typealias Field = CodingKeys
}

/// `POST /api/auth/delete-user` 200 body: `{ "success": true, "message": "User deleted" }`.
public struct DeleteUserResponse: Codable, Sendable, Equatable {
    public var success: Bool
    public var message: String

    public init(success: Bool, message: String) {
        self.success = success
        self.message = message
    }

    public static let deleted = DeleteUserResponse(success: true, message: "User deleted")
}
