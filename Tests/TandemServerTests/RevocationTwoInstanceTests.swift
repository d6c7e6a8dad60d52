import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TandemAPI
import TandemServer
import TestSupport
import Testing

extension StoreContractTests {
    /// Two `tandem serve` instances on one PostgreSQL (issue 13 item 2): a session revoked
    /// through one instance gets `null` from get-session on the other at once, and so does a
    /// deleted user's.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["POSTGRES_URL"] != nil, "PostgreSQL only: set POSTGRES_URL"))
    func aSessionRevokedOnOneInstanceIsNullOnTheOtherAtOnce() async throws {
        try await Self.withStores(.postgres, count: 2) { stores in
            let logger = Logger.quiet("two-instances")
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let configuration = ServerConfiguration(
                host: "127.0.0.1", port: 0, dataDirectory: directory.url, secret: TestServer.secret,
                rateLimiting: false)
            let first = try buildApplication(configuration: configuration, store: stores[0], logger: logger)
            let second = try buildApplication(configuration: configuration, store: stores[1], logger: logger)
            try await first.test(.router) { one in
                try await second.test(.router) { two in
                    let a = APIClient(client: one)
                    let b = APIClient(client: two)
                    let kept = try #require(try await a.signUp("gus").sessionCookie)
                    let other = try #require(try await b.signIn("gus").sessionCookie)
                    let third = try #require(try await b.signIn("gus").sessionCookie)
                    #expect(try await b.getSession(cookie: other).json?["session"] != nil)

                    let token = try #require(
                        (try await a.getSession(cookie: other).json?["session"] as? [String: Any])?["token"] as? String)
                    _ = try await a.send(
                        .post, APIPath.revokeSession, json: #"{"token":"\#(token)"}"#, cookie: kept,
                        origin: "http://localhost")
                    #expect(try await b.getSession(cookie: other).text == "null")

                    _ = try await b.send(
                        .post, APIPath.revokeOtherSessions, cookie: kept, origin: "http://localhost")
                    #expect(try await a.getSession(cookie: third).text == "null")
                    #expect(try await a.getSession(cookie: kept).json?["session"] != nil)

                    _ = try await a.send(
                        .post, APIPath.deleteUser, json: #"{"password":"correct horse battery"}"#, cookie: kept,
                        origin: "http://localhost")
                    #expect(try await b.getSession(cookie: kept).text == "null")
                }
            }
        }
    }
}
