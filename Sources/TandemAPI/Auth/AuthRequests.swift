/// `POST /api/auth/sign-up/email` body (betterauth-api.md §3). Tandem requires `username`.
public struct SignUpEmailRequest: RequestBody {
    public var name: String
    public var email: String
    public var password: String
    public var username: String?
    public var displayUsername: String?
    public var image: String?
    public var callbackURL: String?
    public var rememberMe: Bool?

    public init(
        name: String, email: String, password: String, username: String?, displayUsername: String? = nil,
        image: String? = nil, callbackURL: String? = nil, rememberMe: Bool? = nil
    ) {
        self.name = name
        self.email = email
        self.password = password
        self.username = username
        self.displayUsername = displayUsername
        self.image = image
        self.callbackURL = callbackURL
        self.rememberMe = rememberMe
    }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case name, email, password, username, displayUsername, image, callbackURL, rememberMe
    }

    public typealias Field = CodingKeys
}

/// `POST /api/auth/sign-in/username` body (§3).
public struct SignInUsernameRequest: RequestBody {
    public var username: String
    public var password: String
    public var rememberMe: Bool?
    public var callbackURL: String?

    public init(username: String, password: String, rememberMe: Bool? = nil, callbackURL: String? = nil) {
        self.username = username
        self.password = password
        self.rememberMe = rememberMe
        self.callbackURL = callbackURL
    }

    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        case username, password, rememberMe, callbackURL
    }

    public typealias Field = CodingKeys
}
