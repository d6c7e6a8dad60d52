import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TandemAPI
import TandemBasics
import TandemServerStore

extension AuthController {
    /// `POST /sign-up/email` in BetterAuth's order (betterauth-api.md §3): origin and
    /// callbackURL, username hook on the raw body, schema, first-login CSRF, password length,
    /// duplicate e-mail, then user + credential account + chat profile + session.
    func signUp(_ request: Request, context: TandemRequestContext) async throws -> Response {
        var fields = try SignUpEmailRequest.fields(of: try await JSONBody.read(request))
        let callbackURL = try fields.leadingString(.callbackURL)
        if let callbackURL { try origins.checkCallbackURL(callbackURL, request: request) }

        // Username plugin hook, on the raw input (§8).
        var rawUsername: String?
        var displayUsername: String?
        if case .string(let name)? = fields.value(.username) { rawUsername = name }
        if case .string(let display)? = fields.value(.displayUsername) { displayUsername = display }
        if rawUsername == nil, let display = displayUsername, UsernameRules.violation(of: display) == nil {
            rawUsername = display
        }
        if let raw = rawUsername {
            if let violation = UsernameRules.violation(of: raw) {
                throw APIFailure(.badRequest, violation.code, violation.message)
            }
            if try await store.user(username: UsernameRules.normalize(raw)) != nil {
                throw Self.usernameTaken
            }
        }

        // Schema (§1, §9); Tandem requires a username (§14).
        let body = try fields.decode { SignUpEmailRequest.read(&$0, username: rawUsername, callbackURL: callbackURL) }
        guard let username = body.username else { throw APIFailure.validation(fields.issues) }
        let (name, email, password, image, rememberMe) = (
            body.name, body.email, body.password, body.image, body.rememberMe ?? true
        )

        try origins.checkFirstLogin(request)
        let passwordLength = password.utf16.count
        if passwordLength < 8 { throw APIFailure(.badRequest, .passwordTooShort, "Password too short") }
        if passwordLength > 128 { throw APIFailure(.badRequest, .passwordTooLong, "Password too long") }
        let normalizedEmail = email.lowercased()
        if try await store.user(email: normalizedEmail) != nil { throw Self.emailTaken }

        let now = clock.now.date
        let userID = SessionToken.randomAlphanumeric(count: 32)
        let user = AuthUser(
            id: userID, name: name, email: normalizedEmail, emailVerified: false, image: image, createdAt: now,
            updatedAt: now, username: UsernameRules.normalize(username), displayUsername: displayUsername ?? username)
        let account = CredentialAccount(
            id: SessionToken.randomAlphanumeric(count: 32), accountId: userID, userID: AccountID(userID),
            passwordHash: try await hasher.hash(password), createdAt: UnixMillis(now), updatedAt: UnixMillis(now))
        let profile = ChatProfile(
            userId: userID, displayName: name.isEmpty ? (displayUsername ?? username) : name, kaspaAddress: nil,
            publicKeys: [], updatedAt: now)
        do {
            try await store.createUser(user, account: account, profile: profile)
        } catch ServerStoreError.usernameTaken {
            throw Self.usernameTaken
        } catch ServerStoreError.emailTaken {
            throw Self.emailTaken
        } catch ServerStoreError.unavailable(let reason) {
            throw ServerStoreError.unavailable(reason)
        } catch {
            context.logger.error("sign-up failed", metadata: ["error": "\(error)"])
            throw APIFailure(.unprocessableContent, .failedToCreateUser, "Failed to create user")
        }
        context.logger.info("user registered", metadata: ["user": "\(userID)"])
        let (token, cookies) = try await sessions.start(for: user, rememberMe: rememberMe, request: request)
        var headers = HTTPFields()
        SessionCookies.append(cookies, to: &headers)
        return try JSONResponse.make(SignUpResponse(token: token.value, user: user), headers: headers)
    }

    static let usernameTaken = APIFailure(
        .badRequest, .usernameIsAlreadyTaken, "Username is already taken. Please try another.")
    static let emailTaken = APIFailure(
        .unprocessableContent, .userAlreadyExistsUseAnotherEmail, "User already exists. Use another email.")
}
