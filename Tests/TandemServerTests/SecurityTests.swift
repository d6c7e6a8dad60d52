import Foundation
import HTTPTypes
import TandemAPI
import TandemServer
import Testing

/// Untrusted input never produces a 500, bodies and nesting are capped (issue 4, security).
@Suite struct SecurityTests {
    static let routes: [(HTTPRequest.Method, String)] = [
        (.get, APIPath.health), (.get, APIPath.openAPI), (.post, APIPath.signUpEmail), (.post, APIPath.signInUsername),
        (.get, APIPath.getSession), (.post, APIPath.getSession), (.post, APIPath.signOut),
        (.get, APIPath.myProfile), (.put, APIPath.myProfile), (.post, APIPath.legacyLogin),
        (.delete, APIPath.myProfile), (.get, "/api/auth/nope"), (.post, "/api/auth/sign-in/username/"),
    ]

    static let garbage: [(body: Data, contentType: String?)] = [
        (Data("{".utf8), "application/json"),
        (Data("null".utf8), "application/json"),
        (Data("[1,2,3]".utf8), "application/json"),
        (Data(#""just a string""#.utf8), "application/json"),
        (Data(#"{"username":{"a":1},"password":[],"email":1e999,"name":null}"#.utf8), "application/json"),
        (Data(#"{"username":"\ud800","password":"x"}"#.utf8), "application/json"),
        (Data(#"{"a":1,"a":2}"#.utf8), "application/json"),
        (Data([0xff, 0xfe, 0x00, 0x7b]), "application/json"),
        (Data("username=a&password=b".utf8), "application/x-www-form-urlencoded"),
        (Data("{}".utf8), nil),
        (Data("{}".utf8), "text/plain"),
        (Data(String(repeating: "[", count: 10_000).utf8), "application/json"),
        (Data(#"{"displayName":"x","publicKeys":"zz","kaspaAddress":42}"#.utf8), "application/json"),
    ]

    @Test func garbageAtEveryRouteNeverAnswers500() async throws {
        let server = try TestServer()
        try await server.test { api in
            let cookie = try #require(try await api.signUp("walt").sessionCookie)
            let cookies: [String?] = [
                nil, cookie, "better-auth.session_token=%zz%%.abc",
                "better-auth.session_token=" + String(repeating: "A", count: 4000),
            ]
            for (method, path) in Self.routes {
                for item in Self.garbage {
                    for jar in cookies {
                        let answer = try await api.send(
                            method, path, rawBody: item.body, contentType: item.contentType, cookie: jar,
                            origin: "http://localhost")
                        #expect(answer.status.code < 500, "\(method) \(path) \(answer.status) \(answer.text)")
                    }
                }
            }
        }
    }

    @Test func bodiesOverTheCapAre413() async throws {
        let server = try TestServer()
        try await server.test { api in
            let big = "{\"name\":\"" + String(repeating: "x", count: ServerLimits.maxBodyBytes) + "\"}"
            let answer = try await api.send(.post, APIPath.signUpEmail, json: big)
            #expect(answer.status == .contentTooLarge)
            #expect(answer.errorCode == "PAYLOAD_TOO_LARGE")
        }
    }

    @Test func jsonNestedBeyondTheCapIs400() async throws {
        let server = try TestServer()
        try await server.test { api in
            let deep =
                String(repeating: "[", count: ServerLimits.maxJSONDepth + 1)
                + String(repeating: "]", count: ServerLimits.maxJSONDepth + 1)
            let answer = try await api.send(.post, APIPath.signInUsername, json: #"{"username":"# + deep + "}")
            #expect(answer.status == .badRequest)
            #expect(answer.errorCode == "BAD_REQUEST")
        }
    }

    @Test func malformedJSONAndWrongMediaTypeGetBetterAuthsAnswers() async throws {
        let server = try TestServer()
        try await server.test { api in
            let malformed = try await api.send(.post, APIPath.signInUsername, json: "{nope")
            #expect(malformed.status == .badRequest)
            #expect(malformed.json?["message"] as? String == "Invalid JSON in request body")
            let text = try await api.send(.post, APIPath.signInUsername, json: "{}", contentType: "text/plain")
            #expect(text.status == .unsupportedMediaType)
            #expect(text.errorCode == "UNSUPPORTED_MEDIA_TYPE")
        }
    }

    @Test func unknownPathsTrailingSlashesAndDoubleSlashesAre404WithEmptyBody() async throws {
        let server = try TestServer()
        try await server.test { api in
            for path in ["/api/auth/unknown", "/api/auth/get-session/", "/api/auth//get-session"] {
                let answer = try await api.send(.get, path)
                #expect(answer.status == .notFound)
                #expect(answer.body.isEmpty)
            }
        }
    }

    @Test func legacyLoginIsGoneWithItsCode() async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(.post, APIPath.legacyLogin, json: #"{"idAlias":"abc"}"#)
            #expect(answer.status == .gone)
            #expect(answer.errorCode == "LEGACY_LOGIN_REMOVED")
            #expect((answer.json?["message"] as? String)?.isEmpty == false)
        }
    }

    @Test func healthAnswersOK() async throws {
        let server = try TestServer()
        try await server.test { api in
            let answer = try await api.send(.get, APIPath.health)
            #expect(answer.status == .ok)
            #expect(try answer.decode(HealthResponse.self).status == "ok")
        }
    }
}
