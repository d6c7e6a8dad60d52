import Foundation
import TandemAPI
import TandemServer
import Testing

/// `POST /api/auth/sign-in/email` and `POST /api/auth/is-username-available` (issue 13 item 1;
/// BetterAuth `sign-in.ts` and the username plugin, betterauth-api.md §3, §8).
@Suite struct EmailSignInTests {
    @Test func emailSignInIsCaseInsensitiveAndAnswersTheSignInShape() async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("nora", email: "nora@example.com")
            let answer = try await api.send(
                .post, APIPath.signInEmail, json: #"{"email":"NORA@example.com","password":"correct horse battery"}"#)
            #expect(answer.status == .ok)
            let json = try #require(answer.json)
            #expect(Set(json.keys) == ["redirect", "token", "user"])
            #expect(json["redirect"] as? Bool == false)
            #expect((json["user"] as? [String: Any])?["username"] as? String == "nora")
            let cookie = try #require(answer.sessionCookie)
            #expect(try await api.getSession(cookie: cookie).json?["user"] != nil)
        }
    }

    @Test func unknownEmailMissingAccountAndWrongPasswordGetOneAnswer() async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("omar", email: "omar@example.com")
            let wrong = try await api.send(
                .post, APIPath.signInEmail, json: #"{"email":"omar@example.com","password":"wrong password"}"#)
            let unknown = try await api.send(
                .post, APIPath.signInEmail, json: #"{"email":"nobody@example.com","password":"wrong password"}"#)
            #expect(wrong.status == .unauthorized)
            #expect(wrong.body == unknown.body && wrong.status == unknown.status)
            #expect(
                wrong.text == #"{"code":"INVALID_EMAIL_OR_PASSWORD","message":"Invalid email or password"}"#)
            #expect(wrong.setCookies.isEmpty && unknown.setCookies.isEmpty)
        }
    }

    @Test(arguments: [
        (#"{"email":"not-an-email","password":"x"}"#, 400, "INVALID_EMAIL"),
        (#"{"password":"x"}"#, 400, "VALIDATION_ERROR"),
        (#"{"email":"a@example.com"}"#, 400, "VALIDATION_ERROR"),
        (#"{"email":"a@example.com","password":"x","rememberMe":"yes"}"#, 400, "VALIDATION_ERROR"),
        (
            #"{"email":"a@example.com","password":"x","callbackURL":"https://evil.example"}"#, 403,
            "INVALID_CALLBACK_URL"
        ),
    ])
    func malformedEmailSignInsGetBetterAuthsStatusAndCode(body: String, status: Int, code: String) async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(.post, APIPath.signInEmail, json: body)
            #expect(answer.status.code == status)
            #expect(answer.errorCode == code)
        }
    }

    @Test func usernameAvailabilityIsCaseInsensitive() async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("Pia")
            let taken = try await api.send(.post, APIPath.isUsernameAvailable, json: #"{"username":"PIA"}"#)
            #expect(taken.status == .ok)
            #expect(taken.text == #"{"available":false}"#)
            let free = try await api.send(.post, APIPath.isUsernameAvailable, json: #"{"username":"pia.two"}"#)
            #expect(free.text == #"{"available":true}"#)
        }
    }

    @Test(arguments: [
        (#"{"username":""}"#, 422, "INVALID_USERNAME"),
        (#"{"username":"ab"}"#, 422, "USERNAME_TOO_SHORT"),
        (#"{"username":"\#(String(repeating: "a", count: 31))"}"#, 422, "USERNAME_TOO_LONG"),
        (#"{"username":"a-b"}"#, 422, "INVALID_USERNAME"),
        (#"{}"#, 400, "VALIDATION_ERROR"),
        (#"{"username":7}"#, 400, "VALIDATION_ERROR"),
    ])
    func badUsernamesGetTheSignInCodes(body: String, status: Int, code: String) async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(.post, APIPath.isUsernameAvailable, json: body)
            #expect(answer.status.code == status)
            #expect(answer.errorCode == code)
        }
    }
}
