import Foundation
import TandemAPI
import TandemServer
import Testing

/// `callbackURL` is checked like BetterAuth checks it (issue 14 audit: `"/\t/evil.com"` was
/// accepted and echoed; browsers strip the tab and follow `//evil.com`).
@Suite struct CallbackURLTests {
    static func signIn(_ api: APIClient, callbackURL: String) async throws -> APIClient.Answer {
        let body = try JSONSerialization.data(withJSONObject: [
            "username": "leo", "password": "correct horse battery", "callbackURL": callbackURL,
        ])
        return try await api.send(.post, APIPath.signInUsername, rawBody: body)
    }

    @Test(arguments: [
        "/\t/evil.com", "/\n/evil.com", "/\r/evil.com", "//evil.com", "/\\evil.com", "/%2fevil.com", "/%5cevil.com",
        "/ /evil.com", "/home#frag", "/home\u{0}", "/home\u{7f}", "/caf\u{e9}", "\t//evil.com",
        "http://localhost\t.evil.com/",
        "javascript:alert(1)", "https://evil.example/x",
    ])
    func unsafeCallbackURLsAreRefusedWithBetterAuthsError(callbackURL: String) async throws {
        let server = try TestServer()
        try await server.test { api in
            // The check comes before the credentials (betterauth-api.md §3): no account needed.
            let answer = try await Self.signIn(api, callbackURL: callbackURL)
            #expect(answer.status == .forbidden)
            #expect(answer.errorCode == "INVALID_CALLBACK_URL")
            #expect(answer.json?["message"] as? String == "Invalid callbackURL")
            #expect(answer.sessionCookie == nil)
            #expect(!answer.text.contains("evil"))
        }
    }

    @Test(arguments: ["/", "/home", "/a/b-c_d.e+f@g", "/next?x=1&y=%2F", "myapp://callback/done"])
    func safeCallbackURLsAreEchoed(callbackURL: String) async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("leo")
            let answer = try await Self.signIn(api, callbackURL: callbackURL)
            #expect(answer.status == .ok)
            #expect(answer.json?["url"] as? String == callbackURL)
        }
    }

    @Test func signUpRefusesTheTabTrickToo() async throws {
        let server = try TestServer()
        try await server.test { api in
            let body = try JSONSerialization.data(withJSONObject: [
                "name": "Leo", "email": "leo@example.com", "password": "correct horse battery", "username": "leo",
                "callbackURL": "/\t/evil.com",
            ])
            let answer = try await api.send(.post, APIPath.signUpEmail, rawBody: body)
            #expect(answer.status == .forbidden)
            #expect(answer.errorCode == "INVALID_CALLBACK_URL")
        }
    }
}
