import Foundation
import NIOCore
import TandemAPI
import TandemBasics
import TestSupport
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// get-session's remembered answers (`SessionAnswers`): used only while exact, and never after
/// a change the full path would see.
@Suite struct SessionAnswersTests {
    static let origin = SessionManagementTests.origin

    // MARK: The rules

    @Test func anAnswerIsUsedOnlyAtItsGenerationBeforeExpiryAndBeforeItsRefresh() {
        let answers = SessionAnswers()
        let body = ByteBuffer(string: #"{"session":1}"#)
        answers.remember(
            body, for: "cookie", generation: 7, expiresAt: UnixMillis(1_000), refreshDue: UnixMillis(500))
        #expect(answers.body(for: "cookie", generation: 7, now: UnixMillis(499), allowRefresh: true) == body)
        #expect(answers.body(for: "cookie", generation: 8, now: UnixMillis(499), allowRefresh: true) == nil)
        #expect(answers.body(for: "cookie ", generation: 7, now: UnixMillis(499), allowRefresh: true) == nil)
        // Refresh due: only a request that refuses the refresh may use the answer.
        #expect(answers.body(for: "cookie", generation: 7, now: UnixMillis(500), allowRefresh: true) == nil)
        #expect(answers.body(for: "cookie", generation: 7, now: UnixMillis(500), allowRefresh: false) == body)
        // Expired: never.
        #expect(answers.body(for: "cookie", generation: 7, now: UnixMillis(1_000), allowRefresh: false) == nil)

        answers.remember(body, for: "short", generation: 7, expiresAt: UnixMillis(1_000), refreshDue: nil)
        #expect(answers.body(for: "short", generation: 7, now: UnixMillis(999), allowRefresh: true) == body)
    }

    @Test func theTableEmptiesItselfAtCapacity() {
        let answers = SessionAnswers(capacity: 3)
        for index in 0..<3 {
            answers.remember(
                ByteBuffer(string: "\(index)"), for: "c\(index)", generation: 0, expiresAt: UnixMillis(10),
                refreshDue: nil)
        }
        #expect(answers.count == 3)
        answers.remember(ByteBuffer(string: "3"), for: "c3", generation: 0, expiresAt: UnixMillis(10), refreshDue: nil)
        #expect(answers.count == 1)
        #expect(answers.body(for: "c0", generation: 0, now: UnixMillis(0), allowRefresh: true) == nil)
        #expect(answers.body(for: "c3", generation: 0, now: UnixMillis(0), allowRefresh: true) != nil)
    }

    @Test func theTableHoldsOneGenerationAndDropsOlderAnswers() {
        let answers = SessionAnswers()
        let expiry = UnixMillis(10)
        answers.remember(ByteBuffer(string: "a"), for: "a", generation: 5, expiresAt: expiry, refreshDue: nil)
        answers.remember(ByteBuffer(string: "b"), for: "b", generation: 5, expiresAt: expiry, refreshDue: nil)
        #expect(answers.count == 2)
        // A newer generation empties the table: the older answers could never be used again.
        answers.remember(ByteBuffer(string: "c"), for: "c", generation: 6, expiresAt: expiry, refreshDue: nil)
        #expect(answers.count == 1)
        // An answer built before the last change arrives late: dropped.
        answers.remember(ByteBuffer(string: "d"), for: "d", generation: 5, expiresAt: expiry, refreshDue: nil)
        #expect(answers.count == 1)
        #expect(answers.body(for: "d", generation: 5, now: UnixMillis(0), allowRefresh: true) == nil)
        #expect(answers.body(for: "c", generation: 6, now: UnixMillis(0), allowRefresh: true) != nil)
    }

    @Test func onlySQLiteHasARowGeneration() throws {
        let directory = try TemporaryDirectory()
        let store = try SQLiteServerStore(fileURL: directory.url.appendingPathComponent("tandem.sqlite"))
        #expect(store.rowGeneration != nil)
    }

    // MARK: Over HTTP

    @Test func aRememberedAnswerIsByteForByteTheFullPathsAnswer() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("ada").sessionCookie)
            let decoded = try #require(cookie.removingPercentEncoding)
            let first = try await api.getSession(cookie: cookie)
            let again = try await api.getSession(cookie: cookie)
            let otherForm = try await api.getSession(cookie: decoded)
            #expect(first.status == .ok)
            #expect(again.body == first.body)
            #expect(otherForm.body == first.body)
            #expect(again.headers[.contentType] == "application/json")
            #expect(again.headers[.cacheControl] == "no-store")
            #expect(again.setCookies.isEmpty)
        }
    }

    /// A change to the rows behind a remembered answer, and what get-session must say after it.
    enum Change: String, CaseIterable, Sendable {
        case signOut, revokeSessions, revokeOtherSessions, changePasswordRevokingOthers, deleteUser, updateUser
    }

    @Test(arguments: Change.allCases)
    func aRememberedAnswerNeverOutlivesAChange(_ change: Change) async throws {
        let server = try TestServer()
        try await server.test { api in
            let user = "u" + change.rawValue.lowercased().prefix(12)
            let cookie = try #require(try await api.signUp(String(user)).sessionCookie)
            let other = try #require(try await api.signIn(String(user)).sessionCookie)
            for remembered in [cookie, other] {
                for _ in 0..<2 { #expect(try await api.getSession(cookie: remembered).json?["session"] != nil) }
            }
            switch change {
            case .signOut:
                _ = try await api.send(.post, APIPath.signOut, json: "{}", cookie: other, origin: Self.origin)
            case .revokeSessions:
                _ = try await api.send(.post, APIPath.revokeSessions, cookie: cookie, origin: Self.origin)
            case .revokeOtherSessions:
                _ = try await api.send(.post, APIPath.revokeOtherSessions, cookie: cookie, origin: Self.origin)
            case .changePasswordRevokingOthers:
                let answer = try await api.send(
                    .post, APIPath.changePassword,
                    json:
                        #"{"currentPassword":"correct horse battery","newPassword":"a new long password","revokeOtherSessions":true}"#,
                    cookie: cookie, origin: Self.origin)
                #expect(answer.status == .ok)
            case .deleteUser:
                _ = try await api.send(
                    .post, APIPath.deleteUser, json: #"{"password":"correct horse battery"}"#, cookie: cookie,
                    origin: Self.origin)
            case .updateUser:
                _ = try await api.send(
                    .post, APIPath.updateUser, json: #"{"name":"Renamed"}"#, cookie: cookie, origin: Self.origin)
            }
            let otherAfter = try await api.getSession(cookie: other)
            switch change {
            case .updateUser:
                let user = try #require(otherAfter.json?["user"] as? [String: Any])
                #expect(user["name"] as? String == "Renamed")
            case .signOut, .revokeSessions, .revokeOtherSessions, .changePasswordRevokingOthers, .deleteUser:
                #expect(otherAfter.text == "null")
            }
        }
    }

    @Test func aRememberedAnswerGivesWayToTheRefreshAndToExpiry() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("bea").sessionCookie)
            for _ in 0..<2 { #expect(try await api.getSession(cookie: cookie).setCookies.isEmpty) }
            server.clock.advance(by: .seconds(25 * 3600))
            // Refresh due: a request that refuses it still gets the (unchanged) answer.
            let unrefreshed = try await api.send(.get, APIPath.getSession + "?disableRefresh=true", cookie: cookie)
            #expect(unrefreshed.setCookies.isEmpty)
            let before = try unrefreshed.decode(SessionResponse.self).session.expiresAt
            let refreshed = try await api.getSession(cookie: cookie)
            #expect(refreshed.setCookies.count == 1)
            let after = try refreshed.decode(SessionResponse.self).session.expiresAt
            #expect(after == server.clock.now.date.addingTimeInterval(604_800))
            #expect(after > before)
            // The refreshed answer is remembered in turn, and gives way to expiry.
            for _ in 0..<2 {
                #expect(
                    try await api.getSession(cookie: cookie).decode(SessionResponse.self).session.expiresAt == after)
            }
            server.clock.advance(by: .seconds(604_800))
            let expired = try await api.getSession(cookie: cookie)
            #expect(expired.text == "null")
            #expect(expired.setCookies.contains { $0.hasPrefix(AuthCookie.sessionTokenName + "=;") })
        }
    }

    /// better-call decodes a cookie value once: a value encoded twice is no session, before and
    /// after its once-encoded spelling was remembered.
    @Test func aTwiceEncodedCookieIsNoSessionEvenOnceItsSpellingIsRemembered() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("dora").sessionCookie)
            let twice = cookie.replacingOccurrences(of: "%", with: "%25")
            #expect(twice != cookie)
            #expect(try await api.getSession(cookie: twice).text == "null")
            for _ in 0..<2 { #expect(try await api.getSession(cookie: cookie).json?["session"] != nil) }
            #expect(try await api.getSession(cookie: twice).text == "null")
        }
    }

    @Test func aTamperedCopyOfARememberedCookieIsNoSession() async throws {
        let server = try TestServer()
        try await server.test { api in
            let signUp = try await api.signUp("cleo")
            let cookie = try #require(signUp.sessionCookie)
            let token = try #require(try signUp.decode(SignUpResponse.self).token)
            for _ in 0..<2 { #expect(try await api.getSession(cookie: cookie).json?["session"] != nil) }
            let tampered = cookie.replacingOccurrences(of: token, with: String(token.reversed()))
            #expect(try await api.getSession(cookie: tampered).text == "null")
        }
    }
}
