import Foundation
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemProfile
import TandemTesting
import TestSupport
import Testing

/// A scripted server behind the transport seam: answers by path, records what was sent.
final class ScriptedTransport: HTTPTransport, Sendable {
    private let state = Locked<(answers: [String: TransportResponse], sent: [TransportRequest])>(([:], []))

    func answer(_ path: String, status: Int, body: String, setCookies: [String] = []) {
        state.withLock {
            $0.answers[path] = TransportResponse(
                status: status,
                headers: setCookies.map { (name: "Set-Cookie", value: $0) } + [
                    (name: "Content-Type", value: "application/json")
                ],
                body: Data(body.utf8))
        }
    }

    var requests: [TransportRequest] { state.withLock { $0.sent } }

    func send(_ request: TransportRequest) async throws -> TransportResponse {
        try state.withLock { state in
            state.sent.append(request)
            guard let answer = state.answers[request.url.path] else { throw URLError(.cannotConnectToHost) }
            return answer
        }
    }
}

@Suite struct AccountClientTests {
    static let user = """
        {"id":"u1","name":"A","email":"a@example.com","emailVerified":false,"image":null,"createdAt":"2026-01-01T00:00:00.000Z",\
        "updatedAt":"2026-01-01T00:00:00.000Z","username":"ann","displayUsername":"Ann"}
        """
    static let session = """
        {"session":{"id":"s1","token":"t","userId":"u1","expiresAt":"2026-01-08T00:00:00.000Z","createdAt":"2026-01-01T00:00:00.000Z",\
        "updatedAt":"2026-01-01T00:00:00.000Z","ipAddress":"","userAgent":""},"user":\(user)}
        """
    static let cookie = "better-auth.session_token=tok.sig%3D; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax"

    func makeClient(_ transport: ScriptedTransport, now: Date = Date(timeIntervalSince1970: 1_767_225_600)) throws -> (
        AccountClient, URL
    ) {
        let directory = try TemporaryDirectory().url
        let client = AccountClient(
            server: try #require(URL(string: "http://127.0.0.1:9")),
            profile: Profile(directory: directory, clock: ManualClock(UnixMillis(now))), transport: transport)
        return (client, directory)
    }

    @Test func signInKeepsTheCookieInA0600FileAndSendsItWithOrigin() async throws {
        let transport = ScriptedTransport()
        transport.answer(
            APIPath.signInUsername, status: 200, body: #"{"redirect":false,"token":"tok","user":\#(Self.user)}"#,
            setCookies: [Self.cookie])
        transport.answer(APIPath.getSession, status: 200, body: Self.session)
        let (client, directory) = try makeClient(transport)
        let user = try await client.signIn(username: "ann", password: "pw")
        #expect(user.username == "ann")
        let attributes = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent("session-cookies.json").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        guard case .signedIn(let session) = try await client.currentSession() else {
            Issue.record("expected a session")
            return
        }
        #expect(session.user.id == "u1")
        let get = try #require(transport.requests.last)
        #expect(get.headers.contains { $0.name == "Cookie" && $0.value == "better-auth.session_token=tok.sig%3D" })
        let post = try #require(transport.requests.first)
        #expect(post.headers.contains { $0.name == "Origin" && $0.value == "http://127.0.0.1:9" })
    }

    @Test func expiredCookieIsNotSentAndMeansNoSession() async throws {
        let transport = ScriptedTransport()
        transport.answer(
            APIPath.signInUsername, status: 200, body: #"{"redirect":false,"token":"tok","user":\#(Self.user)}"#,
            setCookies: [Self.cookie.replacingOccurrences(of: "604800", with: "60")])
        let start = Date(timeIntervalSince1970: 1_767_225_600)
        let (client, directory) = try makeClient(transport, now: start)
        _ = try await client.signIn(username: "ann", password: "pw")
        let later = AccountClient(
            server: client.server,
            profile: Profile(directory: directory, clock: ManualClock(UnixMillis(start.addingTimeInterval(61)))),
            transport: transport)
        #expect(try await later.currentSession() == .signedOut(.noSession))
        #expect(transport.requests.count == 1)
    }

    @Test func nullSessionAnd401BothSignOutAndForgetTheCookie() async throws {
        let transport = ScriptedTransport()
        transport.answer(
            APIPath.signInUsername, status: 200, body: #"{"redirect":false,"token":"tok","user":\#(Self.user)}"#,
            setCookies: [Self.cookie])
        transport.answer(APIPath.myProfile, status: 401, body: #"{"code":"UNAUTHORIZED","message":"Unauthorized"}"#)
        transport.answer(APIPath.getSession, status: 200, body: "null")
        let (client, _) = try makeClient(transport)
        _ = try await client.signIn(username: "ann", password: "pw")
        await #expect(throws: AccountClientError.signedOut(.sessionRejected)) { try await client.chatProfile() }
        #expect(try await client.currentSession() == .signedOut(.noSession))

        _ = try await client.signIn(username: "ann", password: "pw")
        #expect(try await client.currentSession() == .signedOut(.sessionRejected))
        #expect(try await client.currentSession() == .signedOut(.noSession))
    }

    @Test func serverErrorsCarryTheirAPICode() async throws {
        let transport = ScriptedTransport()
        transport.answer(
            APIPath.signInUsername, status: 401,
            body: #"{"code":"INVALID_USERNAME_OR_PASSWORD","message":"Invalid username or password"}"#)
        let (client, _) = try makeClient(transport)
        await #expect(
            throws: AccountClientError.server(
                status: 401, code: .invalidUsernameOrPassword, message: "Invalid username or password")
        ) {
            try await client.signIn(username: "ann", password: "bad")
        }
    }

    @Test func legacyIdAliasSessionForcesReLoginWithAMigrationMessage() async throws {
        let transport = ScriptedTransport()
        let (client, directory) = try makeClient(transport)
        try Data(#"{"idAlias":"old-alias"}"#.utf8).write(to: directory.appendingPathComponent("session.json"))
        let state = try await client.validateOnLaunch()
        #expect(state == .signedOut(.legacySession))
        #expect(SignedOutReason.legacySession.message.contains("username and password"))
        #expect(try await client.validateOnLaunch() == .signedOut(.noSession))
        #expect(transport.requests.isEmpty)
    }

    @Test func signOutForgetsTheCookieEvenWhenTheServerIsUnreachable() async throws {
        let transport = ScriptedTransport()
        transport.answer(
            APIPath.signInUsername, status: 200, body: #"{"redirect":false,"token":"tok","user":\#(Self.user)}"#,
            setCookies: [Self.cookie])
        let (client, _) = try makeClient(transport)
        _ = try await client.signIn(username: "ann", password: "pw")
        await #expect(throws: AccountClientError.self) { try await client.signOut() }
        #expect(try await client.currentSession() == .signedOut(.noSession))
    }
}

@Suite struct SessionCookieStoreTests {
    let origin = "http://127.0.0.1:9"

    @Test func onlyBetterAuthCookiesAreKeptAndMaxAgeZeroDeletes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = SessionCookieStore(profile: Profile(directory: directory.url))
        let now = Date(timeIntervalSince1970: 1_000_000)
        try store.apply(
            setCookies: ["tracker=1; Max-Age=100", "__Secure-better-auth.session_token=v; Max-Age=100; Secure"],
            from: origin, now: now)
        #expect(try store.cookieHeader(for: origin, now: now) == "__Secure-better-auth.session_token=v")
        try store.apply(setCookies: ["__Secure-better-auth.session_token=; Max-Age=0"], from: origin, now: now)
        #expect(try store.cookieHeader(for: origin, now: now) == nil)
    }

    @Test func maxAgeWinsOverExpires() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = SessionCookieStore(profile: Profile(directory: directory.url))
        let now = Date(timeIntervalSince1970: 1_000_000)
        try store.apply(
            setCookies: ["better-auth.session_token=v; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=100"],
            from: origin, now: now)
        #expect(try store.cookieHeader(for: origin, now: now.addingTimeInterval(99)) != nil)
        #expect(try store.cookieHeader(for: origin, now: now.addingTimeInterval(100)) == nil)
    }
}

extension AccountClientTests {
    @Test func aDamagedSessionFileIsAnErrorUntilTheNextSignInReplacesIt() async throws {
        // Given a profile whose saved session file was damaged on disk
        let transport = ScriptedTransport()
        transport.answer(
            APIPath.signInUsername, status: 200, body: #"{"redirect":false,"token":"tok","user":\#(Self.user)}"#,
            setCookies: [Self.cookie])
        transport.answer(APIPath.getSession, status: 200, body: Self.session)
        let (client, directory) = try makeClient(transport)
        let file = directory.appendingPathComponent("session-cookies.json")
        try Data("{\"better-auth.session_token\": tru".utf8).write(to: file)

        // Then reading the session names the damaged file instead of pretending to be signed out
        await #expect(
            throws: AccountClientError.profile(.corruptFile(path: file.path, reason: "not a saved session (33 bytes)"))
        ) {
            try await client.currentSession()
        }
        #expect(transport.requests.isEmpty)

        // And signing in replaces it with the new session
        _ = try await client.signIn(username: "ann", password: "pw")
        guard case .signedIn = try await client.currentSession() else {
            Issue.record("expected a session after signing in again")
            return
        }
    }
}
