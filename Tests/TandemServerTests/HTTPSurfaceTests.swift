import Foundation
import KaspaCrypto
import TandemAPI
import TandemServer
import Testing

/// Small gaps the issue 14 audit found in the HTTP surface: TRACE answered 404, sign-in's 403
/// was undocumented, `kaspaAddress` had no format in the schema.
@Suite struct HTTPSurfaceTests {
    @Test func traceAndConnectAre405NotFound404() async throws {
        let server = try TestServer()
        try await server.test { api in
            for path in [APIPath.health, "/api/auth/nope", APIPath.signInUsername] {
                let answer = try await api.send(.trace, path)
                #expect(answer.status == .methodNotAllowed, "\(path)")
            }
            let unknown = try await api.send(.get, "/api/auth/nope")
            #expect(unknown.status == .notFound)
        }
    }

    /// Schemathesis (issue 14): a 405 names the methods the path does serve (RFC 9110 §15.5.6),
    /// and a served path asked with another method is 405, not the router's 404.
    @Test func methodNotAllowedListsTheAllowedMethods() async throws {
        let server = try TestServer()
        try await server.test { api in
            let delete = try await api.send(.delete, APIPath.health)
            #expect(delete.status == .methodNotAllowed)
            #expect(delete.headers[.allow] == "GET, HEAD")
            let trace = try await api.send(.trace, APIPath.kasiaMetrics)
            #expect(trace.status == .methodNotAllowed)
            #expect(trace.headers[.allow] == "GET")
            let put = try await api.send(.put, APIPath.signInUsername, json: "{}")
            #expect(put.status == .methodNotAllowed)
            #expect(put.headers[.allow] == "POST")
            let nowhere = try await api.send(.trace, "/api/auth/nope")
            #expect(nowhere.headers[.allow] == "")
            #expect(try await api.send(.delete, "/api/auth/nope").status == .notFound)
            // The method is checked before the origin check: a cookie without Origin does not
            // turn a wrong method into 403.
            let posted = try await api.send(.post, APIPath.kasiaMetrics, json: "{}", cookie: "a=b")
            #expect(posted.status == .methodNotAllowed)
            #expect(try await api.send(.delete, APIPath.health + "/").status == .notFound)
        }
    }

    @Test func signInDocumentsItsForbiddenAnswer() async throws {
        let server = try TestServer()
        try await server.test { api in
            let document = try #require(try await api.send(.get, APIPath.openAPI).json)
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let signIn = try #require(paths[APIPath.signInUsername]?["post"] as? [String: Any])
            let responses = try #require(signIn["responses"] as? [String: Any])
            #expect(responses["403"] != nil)
            // And sign-in does answer 403 (an untrusted callbackURL).
            let answer = try await api.send(
                .post, APIPath.signInUsername, json: #"{"username":"a_b_c","password":"x","callbackURL":"//evil"}"#)
            #expect(answer.status == .forbidden)
        }
    }

    @Test func kaspaAddressSchemasHaveAPatternTheServersAddressesMatch() async throws {
        let server = try TestServer()
        try await server.test { api in
            let document = try #require(try await api.send(.get, APIPath.openAPI).json)
            let components = try #require(document["components"] as? [String: Any])
            let schemas = try #require(components["schemas"] as? [String: Any])
            let profile = try #require(schemas["ChatProfile"] as? [String: Any])
            let field = try #require((profile["properties"] as? [String: Any])?["kaspaAddress"] as? [String: Any])
            let pattern = try #require(field["pattern"] as? String)
            let regex = try Regex(pattern)
            for seed in UInt8(1)...UInt8(4) {
                let address = RelayFixtures.address(RelayFixtures.key(seed)).description
                #expect(address.wholeMatch(of: regex) != nil, "\(address)")
            }
            #expect("kaspa:xyz".wholeMatch(of: regex) == nil)
            #expect(
                "bitcoin:qpzry9x8gf2tvdw0s3jn54khce6mua7lqpzry9x8gf2tvdw0s3jn54khce6mua7lqpzry9x8g".wholeMatch(
                    of: regex) == nil)
        }
    }
}
