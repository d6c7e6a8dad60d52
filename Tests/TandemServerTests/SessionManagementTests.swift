import Foundation
import HTTPTypes
import TandemAPI
import TandemServer
import Testing

/// list-sessions and the three revoke routes (issue 13 item 2; BetterAuth `session.ts`).
@Suite struct SessionManagementTests {
    static let origin = "http://localhost"

    /// Signs `username` up and in twice more: three sessions, three cookies.
    static func threeSessions(_ api: APIClient, _ username: String) async throws -> [String] {
        let first = try #require(try await api.signUp(username).sessionCookie)
        var cookies = [first]
        for _ in 0..<2 { cookies.append(try #require(try await api.signIn(username).sessionCookie)) }
        return cookies
    }

    @Test func listSessionsShowsEveryLiveSessionAndOnlyTheCurrentRawToken() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookies = try await Self.threeSessions(api, "quin")
            try await api.signUp("rosa")
            let current = try #require(try await api.getSession(cookie: cookies[1]).json?["session"] as? [String: Any])
            let answer = try await api.send(.get, APIPath.listSessions, cookie: cookies[1])
            #expect(answer.status == .ok)
            let listed = try answer.decode([AuthSession].self)
            #expect(listed.count == 3)
            let userID = try #require(current["userId"] as? String)
            #expect(Set(listed.map(\.userId)) == [userID])
            let mine = try #require(listed.first { $0.id == current["id"] as? String })
            #expect(mine.token == current["token"] as? String)
            #expect(listed.filter { $0.token == mine.token }.count == 1)
        }
    }

    @Test func guardedRoutesAnswer401WithoutASession() async throws {
        let server = try TestServer()
        try await server.test { api in
            for (method, path) in [
                (.get, APIPath.listSessions), (.post, APIPath.revokeSession), (.post, APIPath.revokeSessions),
                (.post, APIPath.revokeOtherSessions), (.post, APIPath.updateUser), (.post, APIPath.changePassword),
                (.post, APIPath.deleteUser),
            ] as [(HTTPRequest.Method, String)] {
                let answer = try await api.send(method, path, json: method == .post ? "{}" : nil)
                #expect(answer.status == .unauthorized, "\(path)")
                #expect(answer.text == #"{"code":"UNAUTHORIZED","message":"Unauthorized"}"#, "\(path)")
            }
        }
    }

    @Test func revokeSessionByListedHandleEndsThatSessionAtOnce() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookies = try await Self.threeSessions(api, "sam")
            let other = try #require(try await api.getSession(cookie: cookies[2]).json?["session"] as? [String: Any])
            let listed = try await api.send(.get, APIPath.listSessions, cookie: cookies[0]).decode([AuthSession].self)
            let handle = try #require(listed.first { $0.id == other["id"] as? String }?.token)
            let answer = try await api.send(
                .post, APIPath.revokeSession, json: #"{"token":"\#(handle)"}"#, cookie: cookies[0], origin: Self.origin)
            #expect(answer.status == .ok)
            #expect(answer.text == #"{"status":true}"#)
            #expect(try await api.getSession(cookie: cookies[2]).text == "null")
            #expect(try await api.getSession(cookie: cookies[1]).json?["session"] != nil)
        }
    }

    @Test func revokeSessionByRawTokenWorksAndAnotherUsersTokenIsIgnored() async throws {
        let server = try TestServer()
        try await server.test { api in
            let mine = try await Self.threeSessions(api, "tia")
            let theirs = try #require(try await api.signUp("uwe").sessionCookie)
            let theirToken = try #require(
                (try await api.getSession(cookie: theirs).json?["session"] as? [String: Any])?["token"] as? String)
            let refused = try await api.send(
                .post, APIPath.revokeSession, json: #"{"token":"\#(theirToken)"}"#, cookie: mine[0], origin: Self.origin
            )
            #expect(refused.text == #"{"status":true}"#)
            #expect(try await api.getSession(cookie: theirs).json?["session"] != nil)

            let myToken = try #require(
                (try await api.getSession(cookie: mine[1]).json?["session"] as? [String: Any])?["token"] as? String)
            _ = try await api.send(
                .post, APIPath.revokeSession, json: #"{"token":"\#(myToken)"}"#, cookie: mine[0], origin: Self.origin)
            #expect(try await api.getSession(cookie: mine[1]).text == "null")

            let missing = try await api.send(
                .post, APIPath.revokeSession, json: "{}", cookie: mine[0], origin: Self.origin)
            #expect(missing.status == .badRequest)
            #expect(missing.errorCode == "VALIDATION_ERROR")
        }
    }

    @Test func revokeOtherSessionsKeepsOnlyTheCallerAndRevokeSessionsEndsAll() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookies = try await Self.threeSessions(api, "vera")
            let others = try await api.send(
                .post, APIPath.revokeOtherSessions, cookie: cookies[0], origin: Self.origin)
            #expect(others.text == #"{"status":true}"#)
            #expect(try await api.getSession(cookie: cookies[0]).json?["session"] != nil)
            #expect(try await api.getSession(cookie: cookies[1]).text == "null")
            #expect(try await api.getSession(cookie: cookies[2]).text == "null")

            let again = try #require(try await api.signIn("vera").sessionCookie)
            let all = try await api.send(.post, APIPath.revokeSessions, cookie: again, origin: Self.origin)
            #expect(all.text == #"{"status":true}"#)
            #expect(all.setCookies.contains { $0.hasPrefix(AuthCookie.sessionTokenName + "=;") })
            #expect(try await api.getSession(cookie: cookies[0]).text == "null")
            #expect(try await api.getSession(cookie: again).text == "null")
        }
    }

    @Test func aCookieRequestFromAnUntrustedOriginIsRefused() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookies = try await Self.threeSessions(api, "wes")
            let answer = try await api.send(
                .post, APIPath.revokeSessions, cookie: cookies[0], origin: "https://evil.example")
            #expect(answer.status == .forbidden)
            #expect(answer.errorCode == "INVALID_ORIGIN")
            #expect(try await api.getSession(cookie: cookies[1]).json?["session"] != nil)
        }
    }
}
