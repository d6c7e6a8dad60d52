import Foundation
import TandemAPI
import Testing

/// The wire shapes of issue 13's routes, pinned byte for byte (BetterAuth `sign-in.ts`,
/// `session.ts`, `update-user.ts` and the username plugin).
@Suite struct AccountWireShapeTests {
    static let user = WireShapeTests.user

    @Test func requests() throws {
        try GoldenJSON.check(
            SignInEmailRequest(email: "ada@example.com", password: "correct horse 1"), "SignInEmailRequest")
        try GoldenJSON.check(UsernameAvailabilityRequest(username: "Ada_L"), "UsernameAvailabilityRequest")
        try GoldenJSON.check(RevokeSessionRequest(token: "tok3n"), "RevokeSessionRequest")
        try GoldenJSON.check(
            UpdateUserRequest(name: "Ada", image: .clear, username: "ada.l"), "UpdateUserRequest+clearImage")
        try GoldenJSON.check(
            ChangePasswordRequest(
                newPassword: "new horse 2", currentPassword: "correct horse 1", revokeOtherSessions: true),
            "ChangePasswordRequest")
        try GoldenJSON.check(DeleteUserRequest(password: "correct horse 1"), "DeleteUserRequest")
    }

    @Test func responses() throws {
        try GoldenJSON.check(UsernameAvailability(available: false), "UsernameAvailability")
        try GoldenJSON.check(StatusResponse(status: true), "StatusResponse")
        try GoldenJSON.check(ChangePasswordResponse(token: nil, user: Self.user), "ChangePasswordResponse+noToken")
        try GoldenJSON.check(DeleteUserResponse.deleted, "DeleteUserResponse")
        try GoldenJSON.check(
            [
                AuthSession(
                    id: "s1", token: "tok3n", userId: Self.user.id, expiresAt: WireShapeTests.updated,
                    createdAt: WireShapeTests.created, updatedAt: WireShapeTests.created, ipAddress: nil,
                    userAgent: "tandem")
            ], "ListSessionsResponse")
    }
}
