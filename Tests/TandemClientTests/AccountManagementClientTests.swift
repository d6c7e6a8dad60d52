import Foundation
import TandemAPI
import TandemAccounts
import Testing

/// The account-management calls of `AccountClient` (issue 13 item 4) against a scripted
/// server: what goes over the wire and what happens to the saved cookie.
@Suite struct AccountManagementClientTests {
    static let signedIn = #"{"redirect":false,"token":"tok","user":\#(AccountClientTests.user)}"#
    static let secureCookie =
        "__Secure-better-auth.session_token=tok.sig%3D; Max-Age=604800; Path=/; HttpOnly; Secure; SameSite=Lax"

    func signedInClient(cookie: String = AccountClientTests.cookie) async throws -> (
        AccountClient, ScriptedTransport, URL
    ) {
        let transport = ScriptedTransport()
        transport.answer(APIPath.signInEmail, status: 200, body: Self.signedIn, setCookies: [cookie])
        let (client, directory) = try AccountClientTests().makeClient(transport)
        _ = try await client.signIn(email: "a@example.com", password: "pw")
        return (client, transport, directory)
    }

    @Test func sessionsAndRevocationSendTheSavedCookie() async throws {
        let (client, transport, _) = try await signedInClient()
        let session =
            #"{"id":"s2","token":"ab","userId":"u1","expiresAt":"2026-01-08T00:00:00.000Z","createdAt":"2026-01-01T00:00:00.000Z","updatedAt":"2026-01-01T00:00:00.000Z","ipAddress":"","userAgent":"curl"}"#
        transport.answer(APIPath.listSessions, status: 200, body: "[\(session)]")
        transport.answer(APIPath.revokeSession, status: 200, body: #"{"status":true}"#)
        transport.answer(APIPath.revokeOtherSessions, status: 200, body: #"{"status":true}"#)
        let listed = try await client.sessions()
        #expect(listed.map(\.id) == ["s2"])
        try await client.revokeSession(token: "ab")
        try await client.revokeOtherSessions()
        let revoke = try #require(transport.requests.first { $0.url.path == APIPath.revokeSession })
        #expect(revoke.body == Data(#"{"token":"ab"}"#.utf8))
        #expect(revoke.headers.contains { $0.name == "Cookie" && $0.value == "better-auth.session_token=tok.sig%3D" })
        #expect(revoke.headers.contains { $0.name == "Origin" })
    }

    @Test func changePasswordKeepsTheNewSessionCookie() async throws {
        let (client, transport, _) = try await signedInClient()
        transport.answer(
            APIPath.changePassword, status: 200, body: #"{"token":"new","user":\#(AccountClientTests.user)}"#,
            setCookies: ["better-auth.session_token=new.sig%3D; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax"])
        transport.answer(APIPath.listSessions, status: 200, body: "[]")
        let answer = try await client.changePassword(current: "old pw", new: "new pw 12", revokeOtherSessions: true)
        #expect(answer.token == "new")
        let sent = try #require(transport.requests.last)
        #expect(
            sent.body
                == Data(#"{"currentPassword":"old pw","newPassword":"new pw 12","revokeOtherSessions":true}"#.utf8))
        _ = try await client.sessions()
        #expect(
            transport.requests.last?.headers.contains {
                $0.name == "Cookie" && $0.value == "better-auth.session_token=new.sig%3D"
            } == true)
    }

    @Test func aRejectedSessionSignsTheClientOut() async throws {
        let (client, transport, _) = try await signedInClient()
        transport.answer(APIPath.listSessions, status: 401, body: #"{"code":"UNAUTHORIZED","message":"Unauthorized"}"#)
        await #expect(throws: AccountClientError.signedOut(.sessionRejected)) { _ = try await client.sessions() }
    }

    @Test func deleteAccountWipesTheSavedSession() async throws {
        let (client, transport, directory) = try await signedInClient()
        transport.answer(APIPath.deleteUser, status: 200, body: #"{"message":"User deleted","success":true}"#)
        try await client.deleteAccount(password: "pw")
        #expect(transport.requests.last?.body == Data(#"{"password":"pw"}"#.utf8))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("session-cookies.json").path))
        #expect(try await client.currentSession() == .signedOut(.noSession))
    }

    /// Behind HTTPS (`--public-url https://…`) the cookie is `__Secure-better-auth.session_token`:
    /// the store keeps it and sends it back under that name.
    @Test func theSecureCookieNameIsKeptAndSent() async throws {
        let (client, transport, _) = try await signedInClient(cookie: Self.secureCookie)
        transport.answer(APIPath.updateUser, status: 200, body: #"{"status":true}"#)
        try await client.updateUser(UpdateUserRequest(name: "Ann B"))
        let sent = try #require(transport.requests.last)
        #expect(
            sent.headers.contains { $0.name == "Cookie" && $0.value == "__Secure-better-auth.session_token=tok.sig%3D" }
        )
        #expect(sent.body == Data(#"{"name":"Ann B"}"#.utf8))
    }
}
