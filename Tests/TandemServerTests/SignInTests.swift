import Foundation
import TandemAPI
import TandemServer
import Testing

/// `POST /api/auth/sign-in/username` (betterauth-api.md §3, §4).
@Suite struct SignInTests {
    @Test func signInIsCaseInsensitiveAndAnswersRedirectFalseWithoutURL() async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("Kate")
            let answer = try await api.signIn("KATE")
            #expect(answer.status == .ok)
            let json = try #require(answer.json)
            #expect(Set(json.keys) == ["redirect", "token", "user"])
            #expect(json["redirect"] as? Bool == false)
            #expect(answer.sessionCookie != nil)
        }
    }

    @Test func callbackURLIsEchoedWithRedirectTrue() async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("leo")
            let answer = try await api.send(
                .post, APIPath.signInUsername,
                json: """
                    {"username":"leo","password":"correct horse battery","callbackURL":"/home"}
                    """)
            #expect(answer.json?["redirect"] as? Bool == true)
            #expect(answer.json?["url"] as? String == "/home")
            let evil = try await api.send(
                .post, APIPath.signInUsername,
                json: """
                    {"username":"leo","password":"correct horse battery","callbackURL":"https://evil.example/x"}
                    """)
            #expect(evil.errorCode == "INVALID_CALLBACK_URL")
        }
    }

    @Test func unknownUserAndWrongPasswordGetTheIdenticalAnswer() async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("mia")
            let wrong = try await api.signIn("mia", password: "wrong password")
            let unknown = try await api.signIn("nobody_here", password: "wrong password")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.status == unknown.status)
            #expect(wrong.body == unknown.body)
            #expect(wrong.errorCode == "INVALID_USERNAME_OR_PASSWORD")
            #expect(wrong.json?["message"] as? String == "Invalid username or password")
            #expect(wrong.setCookies.isEmpty && unknown.setCookies.isEmpty)
        }
    }

    @Test(arguments: [
        (#"{"username":"","password":"x"}"#, 401, "INVALID_USERNAME_OR_PASSWORD"),
        (#"{"username":"abc","password":""}"#, 401, "INVALID_USERNAME_OR_PASSWORD"),
        (#"{"username":"ab","password":"x"}"#, 422, "USERNAME_TOO_SHORT"),
        (#"{"username":"a-b","password":"x"}"#, 422, "INVALID_USERNAME"),
        (#"{"username":"me@example.com","password":"x"}"#, 422, "INVALID_USERNAME"),
        (#"{"password":"x"}"#, 400, "VALIDATION_ERROR"),
        (#"{"username":5,"password":"x"}"#, 400, "VALIDATION_ERROR"),
    ])
    func malformedCredentialsGetBetterAuthsStatusAndCode(body: String, status: Int, code: String) async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(.post, APIPath.signInUsername, json: body)
            #expect(answer.status.code == status)
            #expect(answer.errorCode == code)
        }
    }

    @Test func rateLimitAnswers429WithXRetryAfterUntilTheWindowPasses() async throws {
        let server = try TestServer(rateLimiting: true)
        try await server.test { api in
            for _ in 0..<3 {
                #expect(try await api.signIn("nobody_a", password: "x").status == .unauthorized)
            }
            let limited = try await api.signIn("nobody_a", password: "x")
            #expect(limited.status == .tooManyRequests)
            #expect(limited.json?["message"] as? String == "Too many requests. Please try again later.")
            #expect(limited.json?["code"] == nil)
            let retry = try #require(limited.headers[.init("X-Retry-After")!].flatMap(Int.init))
            #expect(retry > 0 && retry <= 10)
            server.clock.advance(by: .seconds(retry))
            #expect(try await api.signIn("nobody_a", password: "x").status == .unauthorized)
        }
    }
}
