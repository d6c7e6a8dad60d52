import Foundation
import TandemAPI
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// update-user, change-password and delete-user (issue 13 item 3; BetterAuth `update-user.ts`
/// and the username plugin's hook, betterauth-api.md §8).
@Suite struct UserManagementTests {
    static let origin = SessionManagementTests.origin

    @Test func updateUserChangesNameImageAndUsernameAndAnswersStatusTrue() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("xena").sessionCookie)
            let answer = try await api.send(
                .post, APIPath.updateUser,
                json: #"{"name":"Xena W","image":"https://x.example/a.png","username":"Xena.W"}"#,
                cookie: cookie, origin: Self.origin)
            #expect(answer.status == .ok)
            #expect(answer.text == #"{"status":true}"#)
            let user = try #require(try await api.getSession(cookie: cookie).json?["user"] as? [String: Any])
            #expect(user["name"] as? String == "Xena W")
            #expect(user["image"] as? String == "https://x.example/a.png")
            #expect(user["username"] as? String == "xena.w")
            #expect(user["displayUsername"] as? String == "Xena.W")
            #expect(try await api.signIn("XENA.W").status == .ok)
            #expect(try await api.signIn("xena").status == .unauthorized)

            _ = try await api.send(
                .post, APIPath.updateUser, json: #"{"image":null}"#, cookie: cookie, origin: Self.origin)
            let cleared = try #require(try await api.getSession(cookie: cookie).json?["user"] as? [String: Any])
            #expect(cleared["image"] is NSNull)
        }
    }

    @Test(arguments: [
        (#"{"email":"new@example.com"}"#, 400, "EMAIL_CAN_NOT_BE_UPDATED"),
        (#"{}"#, 400, "BAD_REQUEST"),
        (#"{"username":"ab"}"#, 400, "USERNAME_TOO_SHORT"),
        (#"{"username":"a-b"}"#, 400, "INVALID_USERNAME"),
        (#"{"username":"YARA"}"#, 400, "USERNAME_IS_ALREADY_TAKEN"),
        (#"{"name":5}"#, 400, "VALIDATION_ERROR"),
        (#"[]"#, 400, "VALIDATION_ERROR"),
    ])
    func updateUserErrorsGetBetterAuthsCodes(body: String, status: Int, code: String) async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("yara")
            let cookie = try #require(try await api.signUp("zoe").sessionCookie)
            let answer = try await api.send(.post, APIPath.updateUser, json: body, cookie: cookie, origin: Self.origin)
            #expect(answer.status.code == status)
            #expect(answer.errorCode == code)
        }
    }

    @Test func keepingOnesOwnUsernameIsNotATakenName() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("abel").sessionCookie)
            let answer = try await api.send(
                .post, APIPath.updateUser, json: #"{"username":"ABEL"}"#, cookie: cookie, origin: Self.origin)
            #expect(answer.status == .ok)
        }
    }

    @Test func changePasswordRevokesOthersWhenAskedAndTheOldPasswordStopsWorking() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookies = try await SessionManagementTests.threeSessions(api, "bea")
            let answer = try await api.send(
                .post, APIPath.changePassword,
                json:
                    #"{"currentPassword":"correct horse battery","newPassword":"new staple 2026","revokeOtherSessions":true}"#,
                cookie: cookies[0], origin: Self.origin)
            #expect(answer.status == .ok)
            let json = try #require(answer.json)
            #expect(Set(json.keys) == ["token", "user"])
            #expect(json["token"] is String)
            let fresh = try #require(answer.sessionCookie)
            for cookie in cookies { #expect(try await api.getSession(cookie: cookie).text == "null") }
            #expect(try await api.getSession(cookie: fresh).json?["session"] != nil)
            #expect(try await api.signIn("bea").status == .unauthorized)
            #expect(try await api.signIn("bea", password: "new staple 2026").status == .ok)
            let hash = try #require(
                try await server.store.credentialAccount(
                    userID: AccountID(
                        json["user"].flatMap {
                            ($0 as? [String: Any])?["id"] as? String
                        } ?? ""))?.passwordHash)
            #expect(hash.count == 32 + 1 + 128)
        }
    }

    @Test func changePasswordWithoutRevokingKeepsOtherSessionsAndAnswersTokenNull() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookies = try await SessionManagementTests.threeSessions(api, "cleo")
            let answer = try await api.send(
                .post, APIPath.changePassword,
                json: #"{"currentPassword":"correct horse battery","newPassword":"new staple 2026"}"#,
                cookie: cookies[0], origin: Self.origin)
            #expect(answer.status == .ok)
            #expect(answer.json?["token"] is NSNull)
            #expect(answer.setCookies.isEmpty)
            #expect(try await api.getSession(cookie: cookies[2]).json?["session"] != nil)
        }
    }

    @Test(arguments: [
        (#"{"currentPassword":"wrong password","newPassword":"new staple 2026"}"#, "INVALID_PASSWORD"),
        (#"{"currentPassword":"correct horse battery","newPassword":"short"}"#, "PASSWORD_TOO_SHORT"),
        (
            #"{"currentPassword":"correct horse battery","newPassword":"\#(String(repeating: "p", count: 129))"}"#,
            "PASSWORD_TOO_LONG"
        ),
        (#"{"newPassword":"new staple 2026"}"#, "VALIDATION_ERROR"),
        (
            #"{"currentPassword":"correct horse battery","newPassword":"new staple 2026","revokeOtherSessions":1}"#,
            "VALIDATION_ERROR"
        ),
    ])
    func changePasswordErrorsAre400AndChangeNothing(body: String, code: String) async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("dora").sessionCookie)
            let answer = try await api.send(
                .post, APIPath.changePassword, json: body, cookie: cookie, origin: Self.origin)
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == code)
            #expect(try await api.signIn("dora").status == .ok)
        }
    }

    @Test func deleteUserNeedsThePasswordAndThenLeavesNoRowOfTheUser() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookies = try await SessionManagementTests.threeSessions(api, "emil")
            try await api.signUp("fay")
            let user = try #require(try await api.getSession(cookie: cookies[0]).json?["user"] as? [String: Any])
            let id = try #require(user["id"] as? String)

            let missing = try await api.send(
                .post, APIPath.deleteUser, json: "{}", cookie: cookies[0], origin: Self.origin)
            #expect(missing.status == .badRequest)
            #expect(missing.errorCode == "USER_ALREADY_HAS_PASSWORD")
            let wrong = try await api.send(
                .post, APIPath.deleteUser, json: #"{"password":"wrong password"}"#, cookie: cookies[0],
                origin: Self.origin)
            #expect(wrong.status == .badRequest)
            #expect(wrong.text == #"{"code":"INVALID_PASSWORD","message":"Invalid password"}"#)

            let answer = try await api.send(
                .post, APIPath.deleteUser, json: #"{"password":"correct horse battery"}"#, cookie: cookies[0],
                origin: Self.origin)
            #expect(answer.status == .ok)
            #expect(answer.text == #"{"message":"User deleted","success":true}"#)
            #expect(answer.setCookies.contains { $0.hasPrefix(AuthCookie.sessionTokenName + "=;") })
            for cookie in cookies { #expect(try await api.getSession(cookie: cookie).text == "null") }
            #expect(
                try await StoreContractTests.cellsHolding([id, "emil", "emil@example.com"], in: server.store) == [])
            #expect(try await StoreContractTests.cellsHolding(["fay"], in: server.store) != [])
            #expect(try await api.signIn("emil").status == .unauthorized)
        }
    }
}
