import Foundation
import HTTPTypes
import Hummingbird
import TandemAPI
import TandemBasics
import TandemServerStore

/// BetterAuth's session management (`session.ts`): list-sessions, revoke-session,
/// revoke-other-sessions, revoke-sessions, all behind requireAuth. A revoked session is
/// deleted from the store, so its cookie resolves to `null` on the next get-session of every
/// instance (the SQLite row cache forgets it in the same call; PostgreSQL caches nothing).
struct SessionController: Sendable {
    let store: any AccountStore
    let sessions: SessionAuthority
    let clock: any WallClock

    func register(on group: RouterGroup<AuthenticatedRequestContext>, table: RouteTable) {
        table.add(group, .get, "list-sessions", fullPath: APIPath.listSessions) { _, context in
            try await list(context)
        }
        table.add(group, .post, "revoke-session", fullPath: APIPath.revokeSession) { request, context in
            try await revoke(request, context: context)
        }
        table.add(group, .post, "revoke-other-sessions", fullPath: APIPath.revokeOtherSessions) { request, context in
            try await revokeAll(request, context: context, keepingCurrent: true)
        }
        table.add(group, .post, "revoke-sessions", fullPath: APIPath.revokeSessions) { request, context in
            try await revokeAll(request, context: context, keepingCurrent: false)
        }
    }

    /// `GET /list-sessions`: the caller's unexpired sessions as BetterAuth `Session` objects.
    /// Only token hashes are stored, so `token` is the raw token for the current session and
    /// the token's SHA-256 hex, a handle revoke-session accepts, for the others.
    func list(_ context: AuthenticatedRequestContext) async throws -> Response {
        let current = context.session
        let now = clock.now
        let listed = try await store.sessions(userID: current.session.userID).filter { $0.expiresAt > now }.map {
            session in
            AuthSession(
                id: session.id.rawValue,
                token: session.id == current.session.id ? current.token.value : session.tokenHash.hex,
                userId: session.userID.rawValue, expiresAt: session.expiresAt.date, createdAt: session.createdAt.date,
                updatedAt: session.updatedAt.date, ipAddress: session.ipAddress, userAgent: session.userAgent)
        }
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        return try JSONResponse.make(listed, headers: headers)
    }

    /// `POST /revoke-session {token}`: deletes that session when it is the caller's; any other
    /// token (unknown, or another user's) changes nothing and still answers `{status:true}`,
    /// so the route tells nobody which tokens exist.
    func revoke(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let current = context.session
        var fields = try RevokeSessionRequest.fields(of: try await JSONBody.read(request))
        let token = try fields.decode { $0.string(.token) }
        var target = try await store.session(tokenHash: SessionToken(value: token).hash)
        if target == nil, token.utf8.count == 64, Hex.isHex(token) {
            target = try await store.session(tokenHash: SessionTokenHash(hex: token.lowercased()))
        }
        var headers = HTTPFields()
        if let target, target.userID == current.session.userID {
            try await store.deleteSession(id: target.id)
            if target.id == current.session.id { SessionCookies.append(sessions.cookies.expiring, to: &headers) }
        }
        return try JSONResponse.make(StatusResponse(status: true), headers: headers)
    }

    /// `POST /revoke-other-sessions` and `POST /revoke-sessions`; the latter ends the caller's
    /// own session too, and its answer expires the cookie.
    func revokeAll(_ request: Request, context: AuthenticatedRequestContext, keepingCurrent: Bool) async throws
        -> Response
    {
        let current = context.session
        _ = try await JSONBody.read(request)
        try await store.deleteSessions(
            userID: current.session.userID, keeping: keepingCurrent ? current.session.id : nil)
        var headers = HTTPFields()
        if !keepingCurrent { SessionCookies.append(sessions.cookies.expiring, to: &headers) }
        return try JSONResponse.make(StatusResponse(status: true), headers: headers)
    }
}
