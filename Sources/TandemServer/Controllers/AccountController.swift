import CanonicalJSON
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import TandemAPI
import TandemBasics
import TandemServerStore

/// BetterAuth's user management (`update-user.ts`) behind requireAuth: update-user (with the
/// username plugin's hook, betterauth-api.md §8), change-password and delete-user.
struct AccountController: Sendable {
    let store: any AccountStore
    let sessions: SessionAuthority
    let hasher: PasswordHasher
    let origins: OriginPolicy
    let clock: any WallClock

    func register(on group: RouterGroup<AuthenticatedRequestContext>, table: RouteTable) {
        table.add(group, .post, "update-user", fullPath: APIPath.updateUser) { request, context in
            try await updateUser(request, context: context)
        }
        table.add(group, .post, "change-password", fullPath: APIPath.changePassword) { request, context in
            try await changePassword(request, context: context)
        }
        table.add(group, .post, "delete-user", fullPath: APIPath.deleteUser) { request, context in
            try await deleteUser(request, context: context)
        }
    }

    /// `POST /update-user`: `email` is refused (400 `EMAIL_CAN_NOT_BE_UPDATED`); a username
    /// follows the sign-up hook's rules (400 codes; taken by another user ⇒ 400
    /// `USERNAME_IS_ALREADY_TAKEN`); nothing to change ⇒ 400; success ⇒ `{status:true}`.
    func updateUser(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let current = context.session
        var fields = try UpdateUserRequest.fields(of: try await JSONBody.read(request))
        if let email = fields.value(.email), email != .null, email != .bool(false), email != .string("") {
            throw APIFailure(.badRequest, .emailCanNotBeUpdated, "Email can not be updated")
        }
        let body = try fields.decode(UpdateUserRequest.read)
        var rawUsername = body.username
        var displayUsername = body.displayUsername
        if rawUsername == nil, let display = displayUsername, UsernameRules.violation(of: display) == nil {
            rawUsername = display
        }
        if let raw = rawUsername {
            if let violation = UsernameRules.violation(of: raw) {
                throw APIFailure(.badRequest, violation.code, violation.message)
            }
            if let holder = try await store.user(username: UsernameRules.normalize(raw)),
                holder.id != current.user.id
            {
                throw AuthController.usernameTaken
            }
            if displayUsername == nil { displayUsername = raw }
        }
        guard body.name != nil || body.image != nil || rawUsername != nil || displayUsername != nil else {
            throw APIFailure(.badRequest, .badRequest, "No fields to update")
        }
        var user = current.user
        if let name = body.name { user.name = name }
        if let image = body.image { user.image = image.value }
        if let raw = rawUsername { user.username = UsernameRules.normalize(raw) }
        if let displayUsername { user.displayUsername = displayUsername }
        user.updatedAt = clock.now.date
        do {
            try await store.updateUser(user)
        } catch ServerStoreError.usernameTaken {
            throw AuthController.usernameTaken
        }
        return try JSONResponse.make(StatusResponse(status: true))
    }

    /// `POST /change-password`: new password 8–128, current password checked (400
    /// `INVALID_PASSWORD`), a fresh scrypt hash stored; with `revokeOtherSessions` every
    /// session ends and a new one starts, its token answered and its cookie set.
    func changePassword(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let current = context.session
        var fields = try ChangePasswordRequest.fields(of: try await JSONBody.read(request))
        let body = try fields.decode(ChangePasswordRequest.read)
        try Self.checkLength(body.newPassword, minimum: true)
        try Self.checkLength(body.currentPassword, minimum: false)
        let userID = current.session.userID
        let account = try await credentialAccount(userID)
        let newHash = try await hasher.hash(body.newPassword)
        guard await hasher.verify(body.currentPassword, against: account.passwordHash) else {
            throw Self.invalidPassword
        }
        try await store.updatePassword(userID: userID, passwordHash: newHash, updatedAt: clock.now)
        context.logger.info("password changed", metadata: ["user": "\(userID.rawValue)"])
        var token: String?
        var headers = HTTPFields()
        if body.revokeOtherSessions == true {
            try await store.deleteSessions(userID: userID, keeping: nil)
            let (fresh, cookies) = try await sessions.start(
                for: current.user, rememberMe: current.session.rememberMe, request: request)
            SessionCookies.append(cookies, to: &headers)
            token = fresh.value
        }
        return try JSONResponse.make(ChangePasswordResponse(token: token, user: current.user), headers: headers)
    }

    /// `POST /delete-user`: Tandem always asks for the password (issue 13; without it 400
    /// `USER_ALREADY_HAS_PASSWORD`), then removes every row of the user in one transaction
    /// and expires the cookies: `{success:true, message:"User deleted"}`.
    func deleteUser(_ request: Request, context: AuthenticatedRequestContext) async throws -> Response {
        let current = context.session
        var fields = try DeleteUserRequest.fields(of: try await JSONBody.read(request))
        let body = try fields.decode(DeleteUserRequest.read)
        if let callbackURL = body.callbackURL { try origins.checkCallbackURL(callbackURL, request: request) }
        guard let password = body.password, !password.isEmpty else {
            throw APIFailure(
                .badRequest, .userAlreadyHasPassword,
                "User already has a password. Provide that to delete the account.")
        }
        try Self.checkLength(password, minimum: false)
        let userID = current.session.userID
        let account = try await credentialAccount(userID)
        guard await hasher.verify(password, against: account.passwordHash) else { throw Self.invalidPassword }
        try await store.deleteUser(id: userID)
        context.logger.info("user deleted", metadata: ["user": "\(userID.rawValue)"])
        var headers = HTTPFields()
        SessionCookies.append(sessions.cookies.expiring, to: &headers)
        return try JSONResponse.make(DeleteUserResponse.deleted, headers: headers)
    }

    private func credentialAccount(_ userID: AccountID) async throws -> CredentialAccount {
        guard let account = try await store.credentialAccount(userID: userID) else {
            throw APIFailure(.badRequest, .credentialAccountNotFound, "Credential account not found")
        }
        return account
    }

    /// BetterAuth's password limits (§7): 8–128 UTF-16 units for a new password; only the
    /// upper bound for a password being checked.
    static func checkLength(_ password: String, minimum: Bool) throws {
        let length = password.utf16.count
        if minimum && length < 8 { throw APIFailure(.badRequest, .passwordTooShort, "Password too short") }
        if length > 128 { throw APIFailure(.badRequest, .passwordTooLong, "Password too long") }
    }

    static let invalidPassword = APIFailure(.badRequest, .invalidPassword, "Invalid password")
}
