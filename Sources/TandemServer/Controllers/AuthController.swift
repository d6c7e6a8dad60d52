import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TandemAPI
import TandemBasics
import TandemServerStore

/// `/api/auth/*`: BetterAuth's sign-up, e-mail and username sign-in, username availability,
/// get-session and sign-out (betterauth-api.md §3), with its JSON, statuses, cookies and error codes.
struct AuthController: Sendable {
    let store: any AccountStore
    let sessions: SessionAuthority
    let hasher: PasswordHasher
    let origins: OriginPolicy
    let clock: any WallClock

    func register(on router: Router<TandemRequestContext>, table: RouteTable) {
        table.add(router, .post, APIPath.signUpEmail) { request, context in try await signUp(request, context: context)
        }
        table.add(router, .post, APIPath.signInUsername) { request, _ in try await signIn(request) }
        table.add(router, .post, APIPath.signInEmail) { request, _ in try await signInEmail(request) }
        table.add(router, .post, APIPath.isUsernameAvailable) { request, _ in try await isUsernameAvailable(request) }
        table.add(router, .get, APIPath.getSession) { request, _ in try await getSession(request) }
        table.add(router, .post, APIPath.getSession) { _, _ in
            throw APIFailure(
                .methodNotAllowed, .methodNotAllowedDeferSessionRequired,
                "POST is only allowed when deferred session refresh is enabled")
        }
        table.add(router, .post, APIPath.signOut) { request, _ in try await signOut(request) }
    }

    /// `POST /sign-in/username` (§3): empty fields 401, bad raw username 422, and one answer
    /// for unknown user, missing account and wrong password, after equal scrypt work.
    func signIn(_ request: Request) async throws -> Response {
        var fields = try SignInUsernameRequest.fields(of: try await JSONBody.read(request))
        let body = try fields.decode(SignInUsernameRequest.read)
        let (username, password, rememberMe, callbackURL) = (
            body.username, body.password, body.rememberMe ?? true, body.callbackURL
        )
        if let callbackURL { try origins.checkCallbackURL(callbackURL, request: request) }
        guard !username.isEmpty, !password.isEmpty else { throw APIFailure.invalidCredentials }
        if let violation = UsernameRules.violation(of: username) {
            throw APIFailure(.unprocessableContent, violation.code, violation.message)
        }
        guard let user = try await store.user(username: UsernameRules.normalize(username)),
            let account = try await store.credentialAccount(userID: AccountID(user.id))
        else {
            await hasher.dummyVerify(password)
            throw APIFailure.invalidCredentials
        }
        guard await hasher.verify(password, against: account.passwordHash) else { throw APIFailure.invalidCredentials }
        return try await signedIn(user, rememberMe: rememberMe, callbackURL: callbackURL, request)
    }

    /// `GET /get-session` (§3): `null` when signed out (never 401), `{session, user}` when
    /// signed in; always `Cache-Control: no-store`. On SQLite a cookie's answer is remembered
    /// while it stays exact (`SessionAnswers`).
    func getSession(_ request: Request) async throws -> Response {
        var headers = HTTPFields()
        headers[.cacheControl] = "no-store"
        headers[.pragma] = "no-cache"
        // Decoded here, as the signer would: one entry however the cookie is spelled (a malformed
        // escape is no session, as on the full path).
        guard let cookieValue = sessions.cookieValue(in: request).flatMap(CookieSigner.percentDecode) else {
            return JSONResponse.null(headers: headers)
        }
        let allowRefresh = request.uri.queryParameters["disableRefresh"].map { $0 != "true" } ?? true
        // Read before the rows, so an answer built from them is tagged no later than they are.
        let generation = store.rowGeneration
        if let generation,
            let body = sessions.answers.body(
                for: cookieValue, generation: generation, now: sessions.clock.now, allowRefresh: allowRefresh)
        {
            return JSONResponse.raw(body, status: .ok, headers: headers)
        }
        let token = sessions.signer.token(fromDecodedValue: cookieValue)
        switch try await sessions.resolve(token, allowRefresh: allowRefresh) {
        case .absent:
            return JSONResponse.null(headers: headers)
        case .stale:
            SessionCookies.append(sessions.cookies.expiring, to: &headers)
            return JSONResponse.null(headers: headers)
        case .valid(let resolved, let setCookie):
            let body = ByteBuffer(bytes: WireJSON.sessionResponse(resolved.wire))
            if let setCookie {
                // The refresh moved the generation; the next request remembers the new answer.
                headers.append(HTTPField(name: .setCookie, value: setCookie))
            } else if let generation {
                sessions.answers.remember(
                    body, for: cookieValue, generation: generation, expiresAt: resolved.session.expiresAt,
                    refreshDue: SessionAuthority.refreshDue(of: resolved.session))
            }
            return JSONResponse.raw(body, status: .ok, headers: headers)
        }
    }

    /// `POST /sign-out` (§3): deletes only this session; 200 `{"success":true}` with expiring
    /// cookies even without a session.
    func signOut(_ request: Request) async throws -> Response {
        _ = try await JSONBody.read(request)
        try await sessions.end(request)
        var headers = HTTPFields()
        SessionCookies.append(sessions.cookies.expiring, to: &headers)
        return try JSONResponse.make(SignOutResponse(success: true), headers: headers)
    }
}
