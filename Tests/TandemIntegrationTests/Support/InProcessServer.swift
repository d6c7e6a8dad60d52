import Foundation
import Logging
import ServiceLifecycle
import TandemServer
import TandemServerStore
import TestSupport

/// The production server, built by `buildApplication` as `tandem serve` builds it, running in
/// this test process on a loopback port (issue 45 item 1): the client suites reach it over real
/// HTTP and WebSockets, without a child process to start, link and wait for. Suites that must
/// SIGKILL the server use ``ServerProcess`` instead.
final class InProcessServer: Sendable {
    let url: URL
    let port: Int
    let dataDirectory: TemporaryDirectory
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// scrypt's N, as the CLI suites' `serve --password-rounds` (``ServerProcess/passwordRounds``).
    static let passwordHasher = PasswordHasher(rounds: ServerProcess.passwordRounds)

    /// A server on `port` (0: any free port), on SQLite in `dataDirectory` or on `databaseURL`,
    /// without rate limits unless `configure` turns them on. Returns once it listens.
    static func start(
        dataDirectory: TemporaryDirectory? = nil, port: Int = 0, databaseURL: String? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> InProcessServer {
        let dataDirectory = try dataDirectory ?? TemporaryDirectory()
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: port,
            storage: databaseURL.map { .postgres(url: $0) } ?? .sqlite(dataDirectory: dataDirectory.url),
            dataDirectory: dataDirectory.url, rateLimiting: false, passwordHasher: passwordHasher)
        configure(&configuration)
        var logger = Logger(label: "tandem.in-process")
        logger.logLevel = .critical
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let app = try await buildApplication(configuration: configuration, logger: logger) { portSink.yield($0) }
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        let running = Task {
            defer { portSink.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next(), let url = URL(string: "http://127.0.0.1:\(bound)") else {
            // The group ended before the server listened: its error says why.
            try await running.value
            throw InProcessServerError.endedBeforeListening
        }
        return InProcessServer(url: url, port: bound, dataDirectory: dataDirectory, group: group, running: running)
    }

    private init(
        url: URL, port: Int, dataDirectory: TemporaryDirectory, group: ServiceGroup, running: Task<Void, any Error>
    ) {
        self.url = url
        self.port = port
        self.dataDirectory = dataDirectory
        self.group = group
        self.running = running
    }

    /// A graceful shutdown, awaited: the server has closed its port and its store when this
    /// returns. The data directory stays (a restart on the same data can use it).
    func stopped() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// ``stopped()`` without waiting, for a `defer`; the data directory goes afterwards.
    func stop() {
        let (group, running, dataDirectory) = (self.group, self.running, self.dataDirectory)
        Task {
            await group.triggerGracefulShutdown()
            _ = await running.result
            dataDirectory.remove()
        }
    }
}

enum InProcessServerError: Error {
    case endedBeforeListening
}
