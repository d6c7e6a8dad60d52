import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import ServiceLifecycle
import TandemServer
import TandemServerStore

/// The production application on a real loopback port, with a client whose read timeout only a
/// real hang reaches. Sign-up and sign-in hash with scrypt on the server's shared hashing
/// queues: in a debug build one hash takes about 2 s, and amid the whole parallel suite a request
/// waits behind every other suite's hashes, longer than the fixed 20 s read timeout of
/// HummingbirdTesting's `.live` client (session 3's "stall" of LiveServerTests).
enum LoopbackServer {
    static func run(
        configuration: ServerConfiguration, store: any ServerStore,
        _ body: @Sendable (TestClient) async throws -> Void
    ) async throws {
        try await run(configuration: configuration, store: store) { client, _ in try await body(client) }
    }

    /// ``run(configuration:store:_:)`` that also names the port, for tests that open raw sockets.
    static func run(
        configuration: ServerConfiguration, store: any ServerStore,
        _ body: @Sendable (TestClient, Int) async throws -> Void
    ) async throws {
        var configuration = configuration
        if configuration.connections == ConnectionLimits() { configuration.connections = TestServer.patientConnections }
        let logger = Logger.quiet("loopback")
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = try buildApplication(configuration: configuration, store: store, logger: logger) {
            portSink.yield($0)
        }
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            let client = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(300)))
            client.connect()
            do {
                try await body(client, port)
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

    /// A JSON POST.
    static func post(_ client: TestClient, _ path: String, json: String, headers extra: HTTPFields = [:]) async throws
        -> TestClient.Response
    {
        var headers = extra
        headers[.contentType] = "application/json"
        return try await client.post(path, headers: headers, body: ByteBuffer(string: json))
    }
}
