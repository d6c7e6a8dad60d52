import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TandemAPI
import TandemBasics

extension AuthController {
    /// `POST /sign-up/email` in BetterAuth's order (betterauth-api.md §3): origin and
    /// callbackURL, username hook on the raw body, schema, first-login CSRF, password length,
    /// duplicate e-mail, then user + credential account + chat profile + session.
    func signUp(_ request: Request, context: TandemRequestContext) async throws -> Response {
        let body = try await JSONBody.read(request)
        var fields = BodyFields(body)
        guard fields.requireObject() else { try fields.throwIfInvalid(); return Response(status: .badRequest) }
        if case .some(let value) = fields.value("callbackURL") {
            guard case .string(let url) = value else {
                throw APIFailure.validation(["[body.callbackURL] Invalid input: expected string, received \(BodyFields.kind(value))"])
            }
            try origins.checkCallbackURL(url, request: request)
        }

        // Username plugin hook, on the raw input (§8).
        var rawUsername: String?
        var displayUsername: String?
        if case .string(let name)? = fields.value("username") { rawUsername = name }
        if case .string(let display)? = fields.value("displayUsername") { displayUsername = display }
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
        let name = fields.string("name")
        let email = fields.string("email")
        let password = fields.string("password")
        let image = fields.optionalString("image")
        let rememberMe = fields.optionalBool("rememberMe") ?? true
        if rawUsername == nil { _ = fields.string("username") }
        _ = fields.optionalString("displayUsername")
        if let email, !EmailRules.isValid(email) { fields.addIssue("[body.email] Invalid email address") }
        try fields.throwIfInvalid()
        guard let name, let email, let password, let rawUsername else { throw APIFailure.validation(fields.issues) }

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
            updatedAt: now, username: UsernameRules.normalize(rawUsername), displayUsername: displayUsername ?? rawUsername)
        let account = CredentialAccount(
            id: SessionToken.randomAlphanumeric(count: 32), accountId: userID, userID: UserID(userID),
            passwordHash: try await hasher.hash(password), createdAt: now, updatedAt: now)
        let profile = ChatProfile(
            userId: userID, displayName: name.isEmpty ? (displayUsername ?? rawUsername) : name, kaspaAddress: nil,
            publicKeys: [], updatedAt: now)
        do {
            try await store.createUser(user, account: account, profile: profile)
        } catch ServerStoreError.usernameTaken {
            throw Self.usernameTaken
        } catch ServerStoreError.emailTaken {
            throw Self.emailTaken
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
