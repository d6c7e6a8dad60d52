import Foundation
import TandemAPI
import TandemServer
import Testing

/// `GET/PUT /api/me/profile` behind requireAuth; one user never sees or changes another's.
@Suite struct ProfileTests {
    @Test func profileWithoutSessionIs401UnauthorizedJSON() async throws {
        let server = try TestServer()
        try await server.test { api in
            for cookie in [nil, "better-auth.session_token=forged.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="] {
                let answer = try await api.send(.get, APIPath.myProfile, cookie: cookie)
                #expect(answer.status == .unauthorized)
                #expect(answer.text == #"{"code":"UNAUTHORIZED","message":"Unauthorized"}"#)
            }
        }
    }

    @Test func newUserHasAProfileNamedAfterThem() async throws {
        let server = try TestServer()
        try await server.test { api in
            let signUp = try await api.signUp("xena")
            let profile = try await api.send(.get, APIPath.myProfile, cookie: signUp.sessionCookie).decode(
                ChatProfile.self)
            #expect(profile.userId == (try signUp.decode(SignUpResponse.self).user.id))
            #expect(profile.displayName == "xena Name")
            #expect(profile.publicKeys.isEmpty)
        }
    }

    @Test func usersOnlyEverReadAndChangeTheirOwnProfile() async throws {
        let server = try TestServer()
        try await server.test { api in
            let alice = try #require(try await api.signUp("alice").sessionCookie)
            let bob = try #require(try await api.signUp("bob").sessionCookie)
            let key = String(repeating: "ab", count: 32)
            let update = try await api.send(
                .put, APIPath.myProfile,
                json: """
                    {"displayName":"Bob B","publicKeys":["\(key)"],"userId":"someone-else"}
                    """, cookie: bob, origin: "http://localhost")
            #expect(update.status == .ok)
            let aliceProfile = try await api.send(.get, APIPath.myProfile, cookie: alice).decode(ChatProfile.self)
            let bobProfile = try await api.send(.get, APIPath.myProfile, cookie: bob).decode(ChatProfile.self)
            #expect(aliceProfile.displayName == "alice Name")
            #expect(aliceProfile.publicKeys.isEmpty)
            #expect(bobProfile.displayName == "Bob B")
            #expect(bobProfile.publicKeys == [key])
            #expect(aliceProfile.userId != bobProfile.userId)
        }
    }

    @Test(arguments: [
        #"{"displayName":"   "}"#, #"{"kaspaAddress":"kaspa:notanaddress"}"#,
        #"{"publicKeys":["xyz"]}"#, #"{"displayName":5}"#,
    ])
    func invalidProfileUpdatesAre400(body: String) async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("yuri").sessionCookie)
            let answer = try await api.send(
                .put, APIPath.myProfile, json: body, cookie: cookie, origin: "http://localhost")
            #expect(answer.status == .badRequest)
        }
    }
}
