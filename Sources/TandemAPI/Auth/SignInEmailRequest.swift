/// `POST /api/auth/sign-in/email` body (betterauth-api.md §3): the core route, kept beside the
/// username plugin's; same answer shape as sign-in/username.
public struct SignInEmailRequest: RequestBody {
    public var email: String
    public var password: String
    public var callbackURL: String?
    public var rememberMe: Bool?

    public init(email: String, password: String, callbackURL: String? = nil, rememberMe: Bool? = nil) {
        self.email = email
        self.password = password
        self.callbackURL = callbackURL
        self.rememberMe = rememberMe
    }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case email, password, callbackURL, rememberMe
    }

    public typealias Field = CodingKeys
}
