import Crypto
import Foundation
import TandemAPI
import TandemServer
import TandemServerStore
import Testing

/// get-session, sign-out, cookies and the session lifetime (betterauth-api.md §3, §5, §6).
@Suite struct SessionTests {
    @Test func getSessionWithoutCookieIsNullAndNeverCached() async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.getSession(cookie: nil)
            #expect(answer.status == .ok)
            #expect(answer.text == "null")
            #expect(answer.headers[.cacheControl] == "no-store")
            #expect(answer.headers.first { $0.name.canonicalName == "pragma" }?.value == "no-cache")
        }
    }

    @Test func getSessionReturnsSessionAndUserForTheCookieEncodedOrDecoded() async throws {
        let server = try TestServer()
        try await server.test { api in
            let signUp = try await api.signUp("nora")
            let cookie = try #require(signUp.sessionCookie)
            let token = try signUp.decode(SignUpResponse.self).token
            for form in [cookie, cookie.removingPercentEncoding ?? cookie] {
                let answer = try await api.getSession(cookie: "other=1; " + form)
                let session = try answer.decode(SessionResponse.self)
                #expect(session.session.token == token)
                #expect(session.user.username == "nora")
                #expect(session.session.expiresAt == server.clock.now.date.addingTimeInterval(604_800))
            }
        }
    }

    @Test func rawUnsignedTokenAndTamperedSignatureAreNoSession() async throws {
        let server = try TestServer()
        try await server.test { api in
            let signUp = try await api.signUp("olga")
            let token = try #require(try signUp.decode(SignUpResponse.self).token)
            #expect(try await api.getSession(cookie: "better-auth.session_token=\(token)").text == "null")
            let cookie = try #require(signUp.sessionCookie)
            let tampered = cookie.replacingOccurrences(of: token, with: String(token.reversed()))
            #expect(try await api.getSession(cookie: tampered).text == "null")
        }
    }

    @Test func tokensHave256BitsAndOnlyTheirHashIsStored() async throws {
        let server = try TestServer()
        try await server.test { api in
            var tokens: Set<String> = []
            for name in ["pia", "quin"] {
                let token = try #require(try await api.signUp(name).decode(SignUpResponse.self).token)
                #expect(Double(token.count) * log2(62) >= 256)
                #expect(token.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) })
                tokens.insert(token)
                let hash = SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
                #expect(try await server.store.session(tokenHash: SessionTokenHash(hex: hash)) != nil)
                #expect(try await server.store.session(tokenHash: SessionTokenHash(hex: token)) == nil)
            }
            #expect(tokens.count == 2)
            for suffix in ["", "-wal"] {
                let file = server.directory.url.appendingPathComponent("tandem.sqlite" + suffix)
                let bytes = (try? Data(contentsOf: file)) ?? Data()
                for token in tokens { #expect(bytes.range(of: Data(token.utf8)) == nil) }
            }
        }
    }

    @Test func sessionExpiresAfterSevenDaysAndTheCookieIsCleared() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("rita").sessionCookie)
            server.clock.advance(by: .seconds(604_800 + 1))
            let answer = try await api.getSession(cookie: cookie)
            #expect(answer.text == "null")
            #expect(
                answer.setCookies.contains { $0.hasPrefix("better-auth.session_token=;") && $0.contains("Max-Age=0") })
        }
    }

    @Test func slidingRefreshFiresAtMostOncePerDay() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("sam").sessionCookie)
            server.clock.advance(by: .seconds(12 * 3600))
            let early = try await api.getSession(cookie: cookie)
            #expect(early.setCookies.isEmpty)
            server.clock.advance(by: .seconds(13 * 3600))
            let refreshed = try await api.getSession(cookie: cookie)
            #expect(refreshed.setCookies.count == 1)
            #expect(refreshed.setCookies.first?.contains("Max-Age=604800") == true)
            let session = try refreshed.decode(SessionResponse.self).session
            #expect(session.expiresAt == server.clock.now.date.addingTimeInterval(604_800))
            server.clock.advance(by: .seconds(6 * 24 * 3600))
            #expect(try await api.getSession(cookie: cookie).text != "null")
        }
    }

    @Test func rememberMeFalseMakesAOneDayBrowserSessionCookie() async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("tara")
            let answer = try await api.send(
                .post, APIPath.signInUsername,
                json: """
                    {"username":"tara","password":"correct horse battery","rememberMe":false}
                    """)
            let cookie = try #require(answer.setCookies.first { $0.hasPrefix("better-auth.session_token=") })
            #expect(!cookie.contains("Max-Age"))
            #expect(answer.setCookies.contains { $0.hasPrefix("better-auth.dont_remember=") })
            server.clock.advance(by: .seconds(86_400 + 1))
            #expect(try await api.getSession(cookie: answer.sessionCookie).text == "null")
        }
    }

    @Test func signOutDeletesOnlyThisSessionAndExpiresTheCookie() async throws {
        let server = try TestServer()
        try await server.test { api in
            try await api.signUp("uma")
            let first = try #require(try await api.signIn("uma").sessionCookie)
            let second = try #require(try await api.signIn("uma").sessionCookie)
            let out = try await api.send(.post, APIPath.signOut, json: "{}", cookie: first, origin: "http://localhost")
            #expect(out.status == .ok)
            #expect(out.text == #"{"success":true}"#)
            #expect(out.setCookies.contains { $0.hasPrefix("better-auth.session_token=;") && $0.contains("Max-Age=0") })
            #expect(try await api.getSession(cookie: first).text == "null")
            #expect(try await api.getSession(cookie: second).text != "null")
        }
    }

    @Test func signOutWithoutSessionStillSucceeds() async throws {
        let server = try TestServer()
        try await server.test { api in
            let out = try await api.send(.post, APIPath.signOut, json: "{}")
            #expect(out.status == .ok)
            #expect(out.json?["success"] as? Bool == true)
        }
    }

    @Test func cookieBearingPostNeedsATrustedOrigin() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("vera").sessionCookie)
            let missing = try await api.send(.post, APIPath.signOut, json: "{}", cookie: cookie)
            #expect(missing.status == .forbidden)
            #expect(missing.errorCode == "MISSING_OR_NULL_ORIGIN")
            let untrusted = try await api.send(
                .post, APIPath.signOut, json: "{}", cookie: cookie, origin: "https://evil.example")
            #expect(untrusted.errorCode == "INVALID_ORIGIN")
            let expo = try await api.send(
                .post, APIPath.signOut, json: "{}", cookie: cookie, headers: ["expo-origin": "myapp://"])
            #expect(expo.status == .ok)
        }
    }

    @Test func postGetSessionIsMethodNotAllowedWithCode() async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(.post, APIPath.getSession, json: "{}")
            #expect(answer.status == .methodNotAllowed)
            #expect(answer.errorCode == "METHOD_NOT_ALLOWED_DEFER_SESSION_REQUIRED")
        }
    }
}
