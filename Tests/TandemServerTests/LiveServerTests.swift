import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle
import TandemAPI
import TandemServer
import Testing

/// The same application over real loopback sockets.
@Suite struct LiveServerTests {
    /// Sign-up hashes with scrypt on the server's shared hashing queues. In a debug build one
    /// hash takes about 2 s, and amid the whole parallel suite the sign-up waits behind every
    /// other suite's hashes, longer than the fixed 20 s read timeout of HummingbirdTesting's
    /// `.live` client (session 3's "stall": the CPU was busy hashing for the other suites). So this
    /// test runs the application itself and reads with a timeout that only a real hang reaches.
    @Test func signUpThenGetSessionOverLoopback() async throws {
        let server = try TestServer()
        var logger = Logger(label: "live")
        logger.logLevel = .critical
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = try buildApplication(configuration: server.configuration, store: server.store, logger: logger) {
            portSink.yield($0)
        }
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            let port = try #require(await iterator.next())
            let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(300)))
            client.connect()
            do {
                try await Self.exercise(client)
                try await client.shutdown()
            } catch {
                try? await client.shutdown()
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    static func exercise(_ client: TestClient) async throws {
        #expect(try await client.get(APIPath.health).head.status == .ok)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        let signUp = try await client.post(
            APIPath.signUpEmail, headers: headers,
            body: ByteBuffer(
                string:
                    #"{"name":"Livia","email":"livia@example.com","password":"correct horse battery","username":"livia"}"#
            ))
        #expect(signUp.head.status == .ok)
        let cookie = try #require(
            signUp.head.headerFields[values: .setCookie].first { $0.hasPrefix(AuthCookie.sessionTokenName + "=") }?
                .split(separator: ";").first.map(String.init))
        var sessionHeaders = HTTPFields()
        sessionHeaders[.cookie] = cookie
        let answer = try await client.get(APIPath.getSession, headers: sessionHeaders)
        let body = try #require(answer.body)
        let session = try APIJSON.decoder().decode(SessionResponse.self, from: Data(body.readableBytesView))
        #expect(session.user.username == "livia")
    }
}
