import ArgumentParser
import BenchSupport
import Foundation
import Hummingbird
import Logging
import TandemServer
import TandemServerStore

/// `tandem-bench relay-server` (hidden): the real Tandem server on a loopback port, for
/// `tandem-bench relay`, which starts it as a child process so that the server's resident
/// memory can be read from `/proc` apart from the load generator's.
///
/// Prints `port N` on stdout once listening and serves until it is killed. Submission rate
/// limits are off: the bench measures the relay, not the token buckets.
struct BenchRelayServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-server",
        abstract: "Serve the relay on 127.0.0.1 for `tandem-bench relay` (internal).",
        shouldDisplay: false
    )

    @Option(name: .long, help: "Directory for the SQLite file and the cookie secret.") var dataDirectory: String
    @Option(name: .long, help: "PostgreSQL URL; SQLite in --data-directory when absent.") var databaseURL: String?
    @Flag(
        name: .long,
        help: "SQLite checkpoints in the commit that passes 1,000 WAL pages, as before issue 49 item 5 (an A/B).")
    var commitCheckpoints = false

    func run() async throws {
        // The handler `tandem serve` installs for its text log format.
        LoggingSystem.bootstrap { label in DeferredMetadataLogHandler(StreamLogHandler.standardError(label: label)) }
        var logger = Logger(label: "bench.relay-server")
        logger.logLevel = .critical
        let directory = URL(fileURLWithPath: dataDirectory)
        let storage: StorageBackend = databaseURL.map { .postgres(url: $0) } ?? .sqlite(dataDirectory: directory)
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, storage: storage, dataDirectory: directory, rateLimiting: false,
            connections: .loadGenerator)
        let announce: @Sendable (Int) async -> Void = { port in CommandIO.write("port \(port)\n") }
        if commitCheckpoints, databaseURL == nil {
            let store = try SQLiteServerStore(
                fileURL: directory.appendingPathComponent("tandem.sqlite"), checkpointInterval: nil)
            let app = try buildApplication(
                configuration: configuration, store: store, logger: logger, onServerRunning: announce)
            return try await app.runService()
        }
        let app = try await buildApplication(configuration: configuration, logger: logger, onServerRunning: announce)
        try await app.runService()
    }
}
