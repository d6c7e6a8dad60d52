public import Foundation
public import TandemAPI
import TandemBasics
public import TandemProfile

/// Signs up, signs in and out against a BetterAuth-compatible server and keeps the session
/// cookie in the profile (seed 003, betterauth-api.md §3, §5). Every guarded call that answers
/// 401 clears the stored cookie and reports `.signedOut(.sessionRejected)`.
public struct AccountClient: Sendable {
    public let server: URL
    public let profile: Profile
    private let transport: any HTTPTransport
    private let cookies: SessionCookieStore

    /// A client of `server` for `profile`; cookie expiry is judged by the profile's clock.
    public init(server: URL, profile: Profile, transport: any HTTPTransport) {
        self.server = server
        self.profile = profile
        self.transport = transport
        self.cookies = profile.sessionCookies
    }

    private func now() -> Date { profile.clock.now.date }

    /// `POST /api/auth/sign-up/email`; the new account is signed in.
    public func signUp(username: String, email: String, name: String, password: String) async throws(AccountClientError)
        -> AuthUser
    {
        try discardDamagedCookies()
        let body = SignUpEmailRequest(name: name, email: email, password: password, username: username)
        let reply = try await post(APIPath.signUpEmail, body)
        let response: SignUpResponse = try decode(reply, path: APIPath.signUpEmail)
        try rememberServer()
        return response.user
    }

    /// `POST /api/auth/sign-in/username`. A damaged saved-session file is replaced by the new
    /// session (signing in is how a person recovers from it).
    public func signIn(username: String, password: String) async throws(AccountClientError) -> AuthUser {
        try discardDamagedCookies()
        let body = SignInUsernameRequest(username: username, password: password)
        let reply = try await post(APIPath.signInUsername, body)
        let response: SignInResponse = try decode(reply, path: APIPath.signInUsername)
        try rememberServer()
        return response.user
    }

    /// The profile keeps the server it signed in to: later calls need not name it.
    private func rememberServer() throws(AccountClientError) {
        do { try profile.rememberServer(server) } catch { throw .profile(error) }
    }

    /// `POST /api/auth/sign-out`; the local cookie is wiped whatever the server answers.
    public func signOut() async throws(AccountClientError) {
        defer { try? cookies.clear() }
        _ = try await post(APIPath.signOut, [String: String]())
    }

    /// `GET /api/auth/get-session`: the live session, or why there is none.
    public func currentSession() async throws(AccountClientError) -> AccountState {
        guard try storedCookieHeader() != nil else {
            switch try cookieBinding() {
            case .origin(let other) where other != serverOrigin: return .signedOut(.sessionForOtherServer(other))
            case .unbound: return .signedOut(.sessionNotBoundToServer)
            default: return .signedOut(.noSession)
            }
        }
        let response = try await exchange("GET", APIPath.getSession, body: nil)
        guard response.status == 200 else { throw failure(response) }
        if String(decoding: response.body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "null" {
            try clearCookies()
            return .signedOut(.sessionRejected)
        }
        let session: SessionResponse = try decode(response, path: APIPath.getSession)
        return .signedIn(session)
    }

    /// What an app does on launch: retire a legacy `idAlias` session (re-login prompt), then
    /// validate the stored cookie with get-session.
    public func validateOnLaunch() async throws(AccountClientError) -> AccountState {
        if try LegacySessionFile(profile: profile).retireIfPresent() {
            try clearCookies()
            return .signedOut(.legacySession)
        }
        return try await currentSession()
    }

    /// `GET /api/me/profile` (guarded).
    public func chatProfile() async throws(AccountClientError) -> ChatProfile {
        try decode(try await guarded("GET", APIPath.myProfile, body: nil), path: APIPath.myProfile)
    }

    /// `PUT /api/me/profile` (guarded).
    public func updateChatProfile(_ update: ChatProfileUpdate) async throws(AccountClientError) -> ChatProfile {
        try decode(try await guarded("PUT", APIPath.myProfile, body: try encode(update)), path: APIPath.myProfile)
    }

    // MARK: Exchange

    package func guarded(_ method: String, _ path: String, body: Data?) async throws(AccountClientError)
        -> TransportResponse
    {
        let response = try await exchange(method, path, body: body)
        if response.status == 401 {
            try clearCookies()
            throw .signedOut(.sessionRejected)
        }
        guard (200..<300).contains(response.status) else { throw failure(response) }
        return response
    }

    func post(_ path: String, _ value: some Encodable) async throws(AccountClientError) -> TransportResponse {
        let response = try await exchange("POST", path, body: try encode(value))
        guard (200..<300).contains(response.status) else { throw failure(response) }
        return response
    }

    private func exchange(_ method: String, _ path: String, body: Data?) async throws(AccountClientError)
        -> TransportResponse
    {
        let parts = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        var url = server.appendingPathComponent(String(parts[0].dropFirst()))
        if parts.count == 2, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.percentEncodedQuery = String(parts[1])
            url = components.url ?? url
        }
        var headers: [(name: String, value: String)] = [(name: "Accept", value: "application/json")]
        if body != nil { headers.append((name: "Content-Type", value: "application/json")) }
        if method != "GET", let origin = Self.origin(of: server) { headers.append((name: "Origin", value: origin)) }
        if let cookie = try storedCookieHeader() { headers.append((name: "Cookie", value: cookie)) }
        let response: TransportResponse
        do {
            response = try await transport.send(
                TransportRequest(method: method, url: url, headers: headers, body: body))
        } catch {
            throw .unreachable(
                server: server.absoluteString, reason: NetworkFailureText.reason(error.localizedDescription))
        }
        do { try cookies.apply(setCookies: response.values(of: "Set-Cookie"), from: serverOrigin, now: now()) } catch {
            throw .profile(error)
        }
        return response
    }

    /// The origin cookies are bound to; a server URL without a host binds to its full text,
    /// which no other server shares.
    private var serverOrigin: String { Self.origin(of: server) ?? server.absoluteString }

    /// Only the cookies `server` itself set are ever sent to it.
    private func storedCookieHeader() throws(AccountClientError) -> String? {
        do { return try cookies.cookieHeader(for: serverOrigin, now: now()) } catch { throw .profile(error) }
    }

    private func cookieBinding() throws(AccountClientError) -> SessionCookieStore.Binding {
        do { return try cookies.binding() } catch { throw .profile(error) }
    }

    func discardDamagedCookies() throws(AccountClientError) {
        do { _ = try cookies.binding() } catch .corruptFile {
            do { try cookies.clear() } catch { throw .profile(error) }
        } catch { throw .profile(error) }
    }

    /// Forgets the saved session when it is this server's: a 401 or `null` from a server
    /// that never got the cookie says nothing about another server's session.
    func clearCookies() throws(AccountClientError) {
        do {
            if case .origin(let owner) = try cookies.binding(), owner != serverOrigin { return }
            try cookies.clear()
        } catch { throw .profile(error) }
    }

    private func failure(_ response: TransportResponse) -> AccountClientError {
        // Inside a sync retry: the policy waits what the server asked (`SyncRetryPolicy`).
        RetryAfterHint.current?.record(response.values(of: "Retry-After").first)
        if let body = try? APIJSON.decoder().decode(APIErrorBody.self, from: response.body) {
            return .server(status: response.status, code: body.knownCode, message: body.message)
        }
        return .server(status: response.status, code: nil, message: "no error body")
    }

    package func encode(_ value: some Encodable) throws(AccountClientError) -> Data {
        do { return try APIJSON.encoder().encode(value) } catch {
            throw .invalidResponse(path: "request", reason: "cannot encode the request")
        }
    }

    package func decode<T: Decodable>(_ response: TransportResponse, path: String) throws(AccountClientError) -> T {
        do { return try APIJSON.decoder().decode(T.self, from: response.body) } catch {
            throw .invalidResponse(path: path, reason: String(describing: error))
        }
    }

    /// The server's origin, sent as `Origin` on state-changing requests (betterauth-api.md §10).
    package static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
}
