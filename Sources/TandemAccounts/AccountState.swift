public import TandemAPI

/// Where the account stands after a check (seed 003: validation on launch, re-login on 401).
public enum AccountState: Sendable, Equatable {
    case signedIn(SessionResponse)
    case signedOut(SignedOutReason)
}

/// Why the client is signed out; `message` is what to tell the user.
public enum SignedOutReason: Sendable, Equatable {
    /// No session cookie in the profile.
    case noSession
    /// The server no longer knows the session (expired, signed out elsewhere, or a 401).
    case sessionRejected
    /// The user signed out.
    case signedOut
    /// A pre-BetterAuth `idAlias` session was found and retired.
    case legacySession
    /// The saved session belongs to another server (this origin); it is not sent here.
    case sessionForOtherServer(String)
    /// The saved session predates binding sessions to their server, so it is sent nowhere.
    case sessionNotBoundToServer

    public var message: String {
        switch self {
        case .noSession: "not signed in: sign in with `tandem account login --server URL`"
        case .sessionRejected: "the session has expired or was revoked: sign in again with `tandem account login`"
        case .signedOut: "signed out"
        case .sessionForOtherServer(let origin):
            "the saved session is for \(origin), not this server; sign in again (tandem account login) to use this one"
        case .sessionNotBoundToServer:
            "the saved session was stored before sessions were tied to their server, so it is no longer sent; sign in again (tandem account login)"
        case .legacySession:
            "this profile held an old idAlias session; Tandem accounts now use a username and password, so sign in again (tandem account login, or tandem account register for a new account)"
        }
    }
}
