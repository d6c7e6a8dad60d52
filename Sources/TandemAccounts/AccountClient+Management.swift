import Foundation
public import TandemAPI

/// Session and account management (issue 13; BetterAuth `session.ts`, `update-user.ts`):
/// e-mail sign-in, username availability, the session list and its revocation, name and
/// password changes and account deletion. Passwords pass through and are never stored.
extension AccountClient {
    /// `POST /api/auth/sign-in/email`.
    public func signIn(email: String, password: String) async throws(AccountClientError) -> AuthUser {
        try discardDamagedCookies()
        let reply = try await post(APIPath.signInEmail, SignInEmailRequest(email: email, password: password))
        let response: SignInResponse = try decode(reply, path: APIPath.signInEmail)
        return response.user
    }

    /// `POST /api/auth/is-username-available`.
    public func isUsernameAvailable(_ username: String) async throws(AccountClientError) -> Bool {
        let reply = try await post(APIPath.isUsernameAvailable, UsernameAvailabilityRequest(username: username))
        let response: UsernameAvailability = try decode(reply, path: APIPath.isUsernameAvailable)
        return response.available
    }

    /// `GET /api/auth/list-sessions` (guarded): this account's live sessions. The current one
    /// carries its raw token; the others a handle `revokeSession(token:)` accepts.
    public func sessions() async throws(AccountClientError) -> [AuthSession] {
        try decode(try await guarded("GET", APIPath.listSessions, body: nil), path: APIPath.listSessions)
    }

    /// `POST /api/auth/revoke-session` (guarded), by a token or handle from `sessions()`.
    public func revokeSession(token: String) async throws(AccountClientError) {
        let _: StatusResponse = try decode(
            try await guarded("POST", APIPath.revokeSession, body: try encode(RevokeSessionRequest(token: token))),
            path: APIPath.revokeSession)
    }

    /// `POST /api/auth/revoke-other-sessions` (guarded): every session but this one ends.
    public func revokeOtherSessions() async throws(AccountClientError) {
        let _: StatusResponse = try decode(
            try await guarded("POST", APIPath.revokeOtherSessions, body: nil), path: APIPath.revokeOtherSessions)
    }

    /// `POST /api/auth/update-user` (guarded).
    public func updateUser(_ update: UpdateUserRequest) async throws(AccountClientError) {
        let _: StatusResponse = try decode(
            try await guarded("POST", APIPath.updateUser, body: try encode(update)), path: APIPath.updateUser)
    }

    /// `POST /api/auth/change-password` (guarded). With `revokeOtherSessions` the server ends
    /// every session and starts a new one, whose cookie replaces the saved one.
    public func changePassword(current: String, new: String, revokeOtherSessions: Bool) async throws(AccountClientError)
        -> ChangePasswordResponse
    {
        let body = ChangePasswordRequest(
            newPassword: new, currentPassword: current, revokeOtherSessions: revokeOtherSessions)
        return try decode(
            try await guarded("POST", APIPath.changePassword, body: try encode(body)), path: APIPath.changePassword)
    }

    /// `POST /api/auth/delete-user` (guarded): the account and everything the server kept of
    /// it are gone; the saved session is wiped.
    public func deleteAccount(password: String) async throws(AccountClientError) {
        let _: DeleteUserResponse = try decode(
            try await guarded("POST", APIPath.deleteUser, body: try encode(DeleteUserRequest(password: password))),
            path: APIPath.deleteUser)
        try clearCookies()
    }
}
