/// Names and lifetimes of the session cookie (betterauth-api.md §5–6).
public enum AuthCookie {
    /// `better-auth.session_token`: the name every BetterAuth client looks for.
    public static let sessionTokenName = "better-auth.session_token"
    /// The same name when secure cookies are on.
    public static let secureSessionTokenName = "__Secure-better-auth.session_token"
    /// `dont_remember`, set for `rememberMe:false` sessions.
    public static let dontRememberName = "better-auth.dont_remember"
    /// Session lifetime, `session.expiresIn`: 7 days.
    public static let sessionLifetimeSeconds = 604_800
    /// Sliding refresh at most once per `updateAge`: 1 day.
    public static let refreshAgeSeconds = 86_400
}

/// The API's paths, shared by the server's router and the client.
public enum APIPath {
    public static let health = "/health"
    public static let openAPI = "/openapi.json"
    public static let signUpEmail = "/api/auth/sign-up/email"
    public static let signInUsername = "/api/auth/sign-in/username"
    public static let getSession = "/api/auth/get-session"
    public static let signOut = "/api/auth/sign-out"
    public static let signInEmail = "/api/auth/sign-in/email"
    public static let isUsernameAvailable = "/api/auth/is-username-available"
    public static let listSessions = "/api/auth/list-sessions"
    public static let revokeSession = "/api/auth/revoke-session"
    public static let revokeOtherSessions = "/api/auth/revoke-other-sessions"
    public static let revokeSessions = "/api/auth/revoke-sessions"
    public static let updateUser = "/api/auth/update-user"
    public static let changePassword = "/api/auth/change-password"
    public static let deleteUser = "/api/auth/delete-user"
    public static let metrics = "/metrics"
    public static let myProfile = "/api/me/profile"
    public static let legacyLogin = "/users/login"
}
