import Foundation
import HTTPTypes
import Hummingbird
public import TandemAPI
import TandemBasics
public import TandemServerStore

/// A session that resolved from a valid cookie.
public struct ResolvedSession: Sendable {
    public let session: StoredSession
    public let token: SessionToken
    public let user: AuthUser

    var wire: SessionResponse {
        SessionResponse(
            session: AuthSession(
                id: session.id.rawValue, token: token.value, userId: session.userID.rawValue,
                expiresAt: session.expiresAt.date, createdAt: session.createdAt.date, updatedAt: session.updatedAt.date,
                ipAddress: session.ipAddress, userAgent: session.userAgent),
            user: user)
    }
}

/// What a request's cookie amounts to (betterauth-api.md §3 get-session, §6).
enum SessionResolution: Sendable {
    /// No cookie, or a malformed or wrongly signed one: treated as signed out, cookies untouched.
    case absent
    /// A well-signed cookie whose row is gone or expired: signed out, and the cookies expire.
    case stale
    /// A live session; `setCookie` is the refreshed cookie when the sliding refresh fired.
    case valid(ResolvedSession, setCookie: String?)
}

/// Creates, resolves, refreshes and ends sessions. Only token hashes reach the store.
struct SessionAuthority: Sendable {
    let store: any AccountStore
    let signer: CookieSigner
    let cookies: SessionCookies
    let clock: any WallClock
    /// get-session's remembered answers, used when the store has a row generation.
    let answers = SessionAnswers()

    static let lifetime = Duration.seconds(AuthCookie.sessionLifetimeSeconds)
    static let shortLifetime = Duration.seconds(86_400)
    static let refreshAge = Duration.seconds(AuthCookie.refreshAgeSeconds)

    /// A new session for `user`; returns the raw token and the `Set-Cookie` values.
    func start(for user: AuthUser, rememberMe: Bool, request: Request) async throws -> (SessionToken, [String]) {
        let now = clock.now
        let token = SessionToken.generate()
        let session = StoredSession(
            id: SessionID(SessionToken.randomAlphanumeric(count: 32)), tokenHash: token.hash,
            userID: AccountID(user.id),
            expiresAt: now.advanced(by: rememberMe ? Self.lifetime : Self.shortLifetime),
            createdAt: now, updatedAt: now, ipAddress: "",
            userAgent: ServerLimits.truncated(
                request.headers[.userAgent] ?? "", toBytes: ServerLimits.maxUserAgentBytes),
            rememberMe: rememberMe)
        try await store.createSession(session)
        let value = signer.cookieValue(for: token)
        var setCookies = [cookies.set(value, maxAge: rememberMe ? AuthCookie.sessionLifetimeSeconds : nil)]
        if !rememberMe {
            setCookies.append(
                cookies.set(CookieSigner.percentEncode("true"), maxAge: nil)
                    .replacingOccurrences(of: cookies.name + "=", with: cookies.dontRememberName + "="))
        }
        return (token, setCookies)
    }

    /// The request's session cookie value as sent (signature not checked).
    func cookieValue(in request: Request) -> String? {
        CookieHeader.value(named: cookies.name, in: request)
    }

    /// The token named by the request's session cookie, if its signature holds.
    func token(in request: Request) -> SessionToken? {
        cookieValue(in: request).flatMap(signer.token(fromCookieValue:))
    }

    /// When the sliding refresh of `session` becomes due: `updateAge` after its last extension;
    /// nil for a session without "remember me", which is never extended.
    static func refreshDue(of session: StoredSession) -> UnixMillis? {
        guard session.rememberMe else { return nil }
        return session.expiresAt.advanced(by: .zero - lifetime).advanced(by: refreshAge)
    }

    /// Resolves the request's session; expired rows are deleted; the refresh fires when at
    /// least `updateAge` passed since the last extension, unless `allowRefresh` is false.
    func resolve(_ request: Request, allowRefresh: Bool = true) async throws -> SessionResolution {
        try await resolve(token(in: request), allowRefresh: allowRefresh)
    }

    /// Resolves a verified token (nil: no usable cookie), as ``resolve(_:allowRefresh:)``.
    func resolve(_ token: SessionToken?, allowRefresh: Bool) async throws -> SessionResolution {
        guard let token else { return .absent }
        // Both rows in one read (one statement on SQLite, one round trip on PostgreSQL).
        guard let found = try await store.sessionWithUser(tokenHash: token.hash) else { return .stale }
        var session = found.session
        let now = clock.now
        guard session.expiresAt > now else {
            try await store.deleteSession(id: session.id)
            return .stale
        }
        guard let user = found.user else { return .stale }
        var setCookie: String?
        if allowRefresh, let due = Self.refreshDue(of: session), now >= due {
            session.expiresAt = now.advanced(by: Self.lifetime)
            session.updatedAt = now
            try await store.refreshSession(id: session.id, expiresAt: session.expiresAt, updatedAt: now)
            setCookie = cookies.set(signer.cookieValue(for: token), maxAge: AuthCookie.sessionLifetimeSeconds)
        }
        return .valid(ResolvedSession(session: session, token: token, user: user), setCookie: setCookie)
    }

    /// Deletes the session named by the request's cookie, if any.
    func end(_ request: Request) async throws {
        guard let token = token(in: request), let session = try await store.session(tokenHash: token.hash) else {
            return
        }
        try await store.deleteSession(id: session.id)
    }
}
