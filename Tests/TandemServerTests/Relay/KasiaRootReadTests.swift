import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics
import TandemServer
import Testing

/// Issue 43 items 1 and 5: `kchat:` rows beside `ciph_msg:` ones, and the `/kasia` routes open
/// to browsers on any origin (Kasia web using the server as its indexer).
@Suite struct KasiaRootReadTests {
    static let alice = RelayFixtures.address(RelayFixtures.alice).description
    static let bob = RelayFixtures.address(RelayFixtures.bob).description

    @Test("a kchat: row is stored with the same body as its ciph_msg: twin and says its root")
    func kchatRowsCarryTheirRoot() async throws {
        let server = try TestServer()
        try await server.test { api in
            for root in KasiaRoot.allCases {
                for submission in [
                    RelayFixtures.signed(
                        RelayFixtures.handshake(root: root), to: RelayFixtures.bob, amount: 20_000_000),
                    RelayFixtures.signed(RelayFixtures.message(root: root)),
                    RelayFixtures.signed(RelayFixtures.payment(root: root), to: RelayFixtures.bob, amount: 1),
                    RelayFixtures.signed(RelayFixtures.selfStash(root: root)),
                ] {
                    #expect(try await api.submit(submission).status == .ok)
                }
            }
            let alias = RelayFixtures.alias.indexerQueryParameter
            let scope = Hex.encode(Array("saved_handshake".utf8))
            for (path, body) in [
                ("/kasia/handshakes/by-sender?address=\(Self.alice)", "message_payload"),
                ("/kasia/contextual-messages/by-sender?address=\(Self.alice)&alias=\(alias)", "message_payload"),
                ("/kasia/payments/by-receiver?address=\(Self.bob)", "message"),
                ("/kasia/self-stash/by-owner?owner=\(Self.alice)&scope=\(scope)", "stashed_data"),
            ] {
                let rows = try #require(
                    try JSONSerialization.jsonObject(with: try await api.send(.get, path).body) as? [[String: Any]])
                #expect(rows.map { $0["root"] as? String } == KasiaRoot.allCases.map(\.rawValue), "\(path)")
                #expect(
                    Set(rows.map { $0[body] as? String }).count == 1, "\(path): the body does not depend on the root")
            }
        }
    }

    @Test("a preflight of a /kasia route is answered 204 with the methods and headers it allows")
    func preflightIsAnswered() async throws {
        let server = try TestServer()
        try await server.test { api in
            for (path, method) in [
                (APIPath.kasiaHandshakesBySender, "GET"), (APIPath.kasiaTransactions, "POST"),
                (APIPath.kasiaStream, "GET"),
            ] {
                let answer = try await api.send(
                    .options, path, origin: "https://kasia.fyi",
                    headers: [
                        "Access-Control-Request-Method": method, "Access-Control-Request-Headers": "content-type",
                    ]
                )
                #expect(answer.status == .noContent, "\(path)")
                #expect(answer.headers[.accessControlAllowOrigin] == "*")
                let methods = answer.headers[.accessControlAllowMethods] ?? ""
                #expect(
                    methods.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } == [
                        "GET", "POST", "OPTIONS",
                    ])
                #expect(answer.headers[.accessControlAllowHeaders]?.lowercased().contains("content-type") == true)
                #expect(answer.body.isEmpty)
            }
        }
    }

    @Test("every /kasia answer, refusals included, allows any origin; other routes do not")
    func answersAllowAnyOrigin() async throws {
        let server = try TestServer()
        try await server.test { api in
            let read = try await api.send(
                .get, "/kasia/handshakes/by-sender?address=\(Self.alice)", origin: "https://kasia.fyi")
            #expect(read.status == .ok)
            #expect(read.headers[.accessControlAllowOrigin] == "*")
            let refused = try await api.send(.post, APIPath.kasiaTransactions, json: "{}", origin: "https://kasia.fyi")
            #expect(refused.status == .badRequest)
            #expect(refused.headers[.accessControlAllowOrigin] == "*")
            let badQuery = try await api.send(.get, "/kasia/handshakes/by-sender?address=nope")
            #expect(badQuery.status == .badRequest)
            #expect(badQuery.headers[.accessControlAllowOrigin] == "*")
            // The account routes stay same-origin: no CORS fields, and no preflight answer.
            let session = try await api.send(.get, APIPath.getSession, origin: "https://kasia.fyi")
            #expect(session.headers[.accessControlAllowOrigin] == nil)
            let accountPreflight = try await api.send(
                .options, APIPath.signInUsername, origin: "https://kasia.fyi",
                headers: ["Access-Control-Request-Method": "POST"])
            #expect(accountPreflight.status != .noContent)
            #expect(accountPreflight.headers[.accessControlAllowOrigin] == nil)
        }
    }
}
