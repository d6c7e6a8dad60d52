import Foundation
import TandemAPI
import TandemServer
import Testing

/// Every stored text field has a cap (issue 14 audit: a 60 KB `User-Agent` reached the session
/// row, sign-up `name`, `image` and `displayUsername` were bounded only by the body limit).
@Suite struct StoredFieldCapsTests {
    static func signUpBody(_ extra: [String: String]) throws -> Data {
        var body = ["name": "Ivy", "email": "ivy@example.com", "password": "correct horse battery", "username": "ivy"]
        body.merge(extra) { _, new in new }
        return try JSONSerialization.data(withJSONObject: body)
    }

    @Test(arguments: [
        ("name", String(repeating: "n", count: 65), 64),
        ("displayUsername", String(repeating: "d", count: 65), 64),
        ("image", "https://example.com/" + String(repeating: "i", count: 2048), 2048),
        ("name", "a" + String(repeating: "\u{301}", count: 10_000), 64),
    ])
    func overlongSignUpFieldsAre400ValidationErrors(field: String, value: String, limit: Int) async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(.post, APIPath.signUpEmail, rawBody: try Self.signUpBody([field: value]))
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "VALIDATION_ERROR")
            #expect(
                answer.json?["message"] as? String
                    == "[body.\(field)] Too big: expected string to have <=\(limit) characters")
            #expect(try await server.store.user(username: "ivy") == nil)
        }
    }

    @Test func fieldsAtTheirCapsAreStored() async throws {
        let server = try TestServer()
        try await server.test { api in
            let name = String(repeating: "é", count: 64)
            let image = "https://example.com/" + String(repeating: "i", count: 2048 - 20)
            let answer = try await api.send(
                .post, APIPath.signUpEmail,
                rawBody: try Self.signUpBody([
                    "name": name, "image": image, "displayUsername": String(repeating: "D", count: 64),
                ]))
            #expect(answer.status == .ok, "\(answer.text)")
            let user = try #require(try await server.store.user(username: "ivy"))
            #expect(user.name == name)
            #expect(user.image == image)
        }
    }

    @Test func aHugeUserAgentIsCutBeforeItReachesTheSessionRow() async throws {
        let server = try TestServer()
        try await server.test { api in
            let agent = "Agent/1.0 " + String(repeating: "ü", count: 30_000)
            let answer = try await api.send(
                .post, APIPath.signUpEmail, rawBody: try Self.signUpBody([:]), headers: ["User-Agent": agent])
            #expect(answer.status == .ok)
            let token = try #require(answer.json?["token"] as? String)
            let session = try #require(try await server.store.session(tokenHash: SessionToken(value: token).hash))
            let stored = try #require(session.userAgent)
            #expect(stored.utf8.count <= ServerLimits.maxUserAgentBytes)
            #expect(stored.utf8.count >= ServerLimits.maxUserAgentBytes - 1)
            #expect(agent.hasPrefix(stored))
        }
    }

    @Test func theProfileRefusesOneHugeCharacterToo() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("zed").sessionCookie)
            let huge = try JSONSerialization.data(withJSONObject: [
                "displayName": "a" + String(repeating: "\u{301}", count: 10_000)
            ])
            let answer = try await api.send(
                .put, APIPath.myProfile, rawBody: huge, cookie: cookie, origin: "http://localhost")
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "INVALID_PROFILE")
        }
    }
}
