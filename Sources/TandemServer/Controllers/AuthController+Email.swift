import Foundation
import HTTPTypes
import Hummingbird
import TandemAPI
import TandemServerStore

extension AuthController {
    /// `POST /sign-in/email` (BetterAuth `sign-in.ts`, betterauth-api.md §3): a malformed
    /// e-mail is 400 `INVALID_EMAIL`; unknown e-mail, missing credential account and wrong
    /// password all get the one 401 `INVALID_EMAIL_OR_PASSWORD` after equal scrypt work.
    func signInEmail(_ request: Request) async throws -> Response {
        var fields = try SignInEmailRequest.fields(of: try await JSONBody.read(request))
        let body = try fields.decode(SignInEmailRequest.read)
        if let callbackURL = body.callbackURL { try origins.checkCallbackURL(callbackURL, request: request) }
        guard EmailRules.isValid(body.email) else { throw APIFailure(.badRequest, .invalidEmail, "Invalid email") }
        guard let user = try await store.user(email: body.email.lowercased()),
            let account = try await store.credentialAccount(userID: AccountID(user.id))
        else {
            await hasher.dummyVerify(body.password)
            throw Self.invalidEmailOrPassword
        }
        guard await hasher.verify(body.password, against: account.passwordHash) else {
            throw Self.invalidEmailOrPassword
        }
        return try await signedIn(user, rememberMe: body.rememberMe ?? true, callbackURL: body.callbackURL, request)
    }

    /// The 200 of both sign-in routes: `{redirect, token, url?, user}`, the session cookie, and
    /// `Location` only when a `callbackURL` was sent.
    func signedIn(_ user: AuthUser, rememberMe: Bool, callbackURL: String?, _ request: Request) async throws
        -> Response
    {
        let (token, cookies) = try await sessions.start(for: user, rememberMe: rememberMe, request: request)
        var headers = HTTPFields()
        SessionCookies.append(cookies, to: &headers)
        if let callbackURL { headers[.location] = callbackURL }
        return try JSONResponse.make(
            SignInResponse(redirect: callbackURL != nil, token: token.value, url: callbackURL, user: user),
            headers: headers)
    }

    /// `POST /is-username-available` (the username plugin, betterauth-api.md §8): an empty or
    /// rule-breaking name is 422 as on sign-in; otherwise `{available}`. It answers nothing a
    /// sign-up attempt would not; the strict sign-in rate limit applies (`RateLimiter`).
    func isUsernameAvailable(_ request: Request) async throws -> Response {
        var fields = try UsernameAvailabilityRequest.fields(of: try await JSONBody.read(request))
        let username = try fields.decode { $0.string(.username) }
        guard !username.isEmpty else {
            throw APIFailure(.unprocessableContent, .invalidUsername, "Username is invalid")
        }
        if let violation = UsernameRules.violation(of: username) {
            throw APIFailure(.unprocessableContent, violation.code, violation.message)
        }
        let taken = try await store.user(username: UsernameRules.normalize(username)) != nil
        return try JSONResponse.make(UsernameAvailability(available: !taken))
    }

    static let invalidEmailOrPassword = APIFailure(
        .unauthorized, .invalidEmailOrPassword, "Invalid email or password")
}
