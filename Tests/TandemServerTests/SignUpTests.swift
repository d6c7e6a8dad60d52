import Foundation
import TandemAPI
import TandemServer
import TandemServerStore
import Testing

/// `POST /api/auth/sign-up/email` (betterauth-api.md §3, §4, §8, §9).
@Suite struct SignUpTests {
    @Test func signUpReturnsTokenAndUserAndSetsBetterAuthSessionCookie() async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.signUp("Alice_1", email: "Alice@Example.com")
            #expect(answer.status == .ok)
            let json = try #require(answer.json)
            #expect(Set(json.keys) == ["token", "user"])
            let user = try #require(json["user"] as? [String: Any])
            #expect(
                Set(user.keys) == [
                    "id", "name", "email", "emailVerified", "image", "createdAt", "updatedAt",
                    "username", "displayUsername",
                ])
            #expect(user["username"] as? String == "alice_1")
            #expect(user["displayUsername"] as? String == "Alice_1")
            #expect(user["email"] as? String == "alice@example.com")
            #expect(user["emailVerified"] as? Bool == false)
            #expect(user["image"] is NSNull)
            let created = try #require(user["createdAt"] as? String)
            #expect(created.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/) != nil)
            let cookie = try #require(answer.setCookies.first)
            #expect(cookie.hasPrefix(AuthCookie.sessionTokenName + "="))
            #expect(cookie.hasSuffix("; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax"))
            #expect(!cookie.contains("Expires"))
        }
    }

    @Test func usernameIsUniqueCaseInsensitively() async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("bob")
            let clash = try await api.signUp("BOB", email: "other@example.com")
            #expect(clash.status == .badRequest)
            #expect(clash.errorCode == "USERNAME_IS_ALREADY_TAKEN")
            #expect(clash.json?["message"] as? String == "Username is already taken. Please try another.")
        }
    }

    @Test func duplicateEmailIs422ComparedLowerCased() async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("carol", email: "carol@example.com")
            let clash = try await api.signUp("carol2", email: "CAROL@example.com")
            #expect(clash.status == .unprocessableContent)
            #expect(clash.errorCode == "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL")
        }
    }

    @Test(arguments: [
        ("ab", "USERNAME_TOO_SHORT"), (String(repeating: "a", count: 31), "USERNAME_TOO_LONG"),
        ("a-b-c", "INVALID_USERNAME"), ("dave@example.com", "INVALID_USERNAME"), ("zoë_x", "INVALID_USERNAME"),
    ])
    func badUsernamesAre400WithTheirCode(username: String, code: String) async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.signUp(username, email: "x@example.com")
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == code)
        }
    }

    @Test func passwordLengthIsCheckedInUTF16Units() async throws {
        let server = try TestServer()
        try await server.test { api in
            let short = try await api.signUp("erin", password: "1234567")
            #expect(short.errorCode == "PASSWORD_TOO_SHORT")
            #expect(short.status == .badRequest)
            let long = try await api.signUp("erin", password: String(repeating: "x", count: 129))
            #expect(long.errorCode == "PASSWORD_TOO_LONG")
            let limit = try await api.signUp("erin", password: String(repeating: "x", count: 128))
            #expect(limit.status == .ok)
        }
    }

    @Test func schemaFailuresAreValidationErrorsNamingTheField() async throws {
        let server = try TestServer()
        try await server.test { api in
            let badEmail = try await api.signUp("frank", email: "not-an-email")
            #expect(badEmail.status == .badRequest)
            #expect(badEmail.errorCode == "VALIDATION_ERROR")
            #expect(badEmail.json?["message"] as? String == "[body.email] Invalid email address")
            let missing = try await api.send(
                .post, APIPath.signUpEmail, json: #"{"email":"g@example.com","password":"12345678","username":"gina"}"#)
            #expect(missing.errorCode == "VALIDATION_ERROR")
            #expect(
                missing.json?["message"] as? String == "[body.name] Invalid input: expected string, received undefined")
            let noUsername = try await api.send(
                .post, APIPath.signUpEmail, json: #"{"name":"","email":"g@example.com","password":"12345678"}"#)
            #expect(noUsername.errorCode == "VALIDATION_ERROR")
        }
    }

    @Test func displayUsernameAloneBecomesTheUsername() async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(
                .post, APIPath.signUpEmail,
                json: """
                    {"name":"H","email":"h@example.com","password":"12345678","displayUsername":"Hank.S"}
                    """)
            let user = try answer.decode(SignUpResponse.self).user
            #expect(user.username == "hank.s")
            #expect(user.displayUsername == "Hank.S")
        }
    }

    @Test func passwordIsStoredAsBetterAuthScryptHashOnTheCredentialAccount() async throws {
        let server = try TestServer()
        try await server.test { api in
            let user = try await api.signUp("ivan").decode(SignUpResponse.self).user
            let account = try #require(try await server.store.credentialAccount(userID: AccountID(user.id)))
            #expect(account.accountId == user.id)
            #expect(PasswordHasher.isWellFormed(account.passwordHash))
            #expect(account.passwordHash.split(separator: ":").first?.count == 32)
            #expect(server.configuration.passwordHasher.verify("correct horse battery", against: account.passwordHash))
        }
    }

    @Test func crossSiteNavigationSignUpIsBlockedButNativeRequestsPass() async throws {
        let server = try TestServer()
        try await server.test { api in
            let blocked = try await api.send(
                .post, APIPath.signUpEmail,
                json: """
                    {"name":"J","email":"j@example.com","password":"12345678","username":"judy"}
                    """, headers: ["Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"])
            #expect(blocked.status == .forbidden)
            #expect(blocked.errorCode == "CROSS_SITE_NAVIGATION_LOGIN_BLOCKED")
            let evil = try await api.send(
                .post, APIPath.signUpEmail,
                json: """
                    {"name":"J","email":"j@example.com","password":"12345678","username":"judy"}
                    """, origin: "https://evil.example")
            #expect(evil.errorCode == "INVALID_ORIGIN")
            let app = try await api.send(
                .post, APIPath.signUpEmail,
                json: """
                    {"name":"J","email":"j@example.com","password":"12345678","username":"judy"}
                    """, origin: "myapp://")
            #expect(app.status == .ok)
        }
    }
}
