import Foundation
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemProfile
import TandemTesting
import TestSupport
import Testing

/// The saved session is bound to the server that set it (issue 14 audit: `--server
/// http://other` sent the saved session cookie there).
@Suite struct SessionOriginTests {
    static let home = "http://127.0.0.1:9"

    func client(_ server: String, _ transport: ScriptedTransport, directory: URL) throws -> AccountClient {
        AccountClient(
            server: try #require(URL(string: server)),
            profile: Profile(
                directory: directory, clock: ManualClock(UnixMillis(Date(timeIntervalSince1970: 1_767_225_600)))),
            transport: transport)
    }

    func signedInProfile(_ transport: ScriptedTransport) async throws -> URL {
        transport.answer(
            APIPath.signInUsername, status: 200,
            body: #"{"redirect":false,"token":"tok","user":\#(AccountClientTests.user)}"#,
            setCookies: [AccountClientTests.cookie])
        transport.answer(APIPath.getSession, status: 200, body: AccountClientTests.session)
        transport.answer(APIPath.myProfile, status: 401, body: #"{"code":"UNAUTHORIZED","message":"Unauthorized"}"#)
        let directory = try TemporaryDirectory().url
        _ = try await client(Self.home, transport, directory: directory).signIn(username: "ann", password: "pw")
        return directory
    }

    static func sentCookie(_ request: TransportRequest) -> Bool { request.headers.contains { $0.name == "Cookie" } }

    @Test(arguments: ["http://other.example:9", "http://127.0.0.1:10", "https://127.0.0.1:9", "http://localhost:9"])
    func anotherServerNeverGetsTheSavedCookie(other: String) async throws {
        let transport = ScriptedTransport()
        let directory = try await signedInProfile(transport)
        let elsewhere = try client(other, transport, directory: directory)

        #expect(try await elsewhere.currentSession() == .signedOut(.sessionForOtherServer(Self.home)))
        await #expect(throws: AccountClientError.self) { try await elsewhere.chatProfile() }
        let toOther = transport.requests.filter { $0.url.absoluteString.hasPrefix(other) }
        #expect(!toOther.isEmpty)
        #expect(!toOther.contains(where: Self.sentCookie), "a cookie went to \(other)")

        // The home server still gets its session.
        guard case .signedIn = try await client(Self.home, transport, directory: directory).currentSession() else {
            Issue.record("the home session was lost")
            return
        }
        #expect(transport.requests.last.map(Self.sentCookie) == true)
    }

    @Test func signingInElsewhereReplacesTheSavedSessionInsteadOfMixingThem() async throws {
        let transport = ScriptedTransport()
        let directory = try await signedInProfile(transport)
        let other = try client("http://other.example:9", transport, directory: directory)
        _ = try await other.signIn(username: "ann", password: "pw")
        #expect(
            try SessionCookieStore(profile: Profile(directory: directory)).binding()
                == .origin("http://other.example:9"))
        #expect(
            try await client(Self.home, transport, directory: directory).currentSession()
                == .signedOut(.sessionForOtherServer("http://other.example:9")))
    }

    @Test func aSessionSavedInTheOldFormatIsSentNowhereAndAsksForSignIn() async throws {
        let transport = ScriptedTransport()
        transport.answer(APIPath.getSession, status: 200, body: AccountClientTests.session)
        let directory = try TemporaryDirectory().url
        try Data(#"{"better-auth.session_token":{"value":"tok.sig%3D","expiresAt":1800000000000}}"#.utf8)
            .write(to: directory.appendingPathComponent("session-cookies.json"))
        let client = try client(Self.home, transport, directory: directory)

        let state = try await client.currentSession()
        #expect(state == .signedOut(.sessionNotBoundToServer))
        if case .signedOut(let reason) = state { #expect(reason.message.contains("sign in again")) }
        #expect(transport.requests.isEmpty)
        await #expect(throws: AccountClientError.self) { try await client.chatProfile() }
        #expect(!transport.requests.contains(where: Self.sentCookie))
    }

    @Test func theFileNamesItsOrigin() async throws {
        let transport = ScriptedTransport()
        let directory = try await signedInProfile(transport)
        let data = try Data(contentsOf: directory.appendingPathComponent("session-cookies.json"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["origin"] as? String == Self.home)
        #expect((object["cookies"] as? [String: Any])?.keys.contains("better-auth.session_token") == true)
    }
}
