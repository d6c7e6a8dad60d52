import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import TandemAPI
import TestSupport
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// The server's own files after a fresh start (issue 13 item 5): data directory 0700,
/// database, WAL, SHM and secret files 0600; an exposed secret file stops the start.
@Suite struct ServerFilesTests {
    static func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return try #require((attributes[.posixPermissions] as? NSNumber)?.intValue)
    }

    @Test func aFreshStartCreatesPrivateDirectoryAndFiles() async throws {
        let parent = try TemporaryDirectory()
        defer { parent.remove() }
        let data = parent.url.appendingPathComponent("tandem-data")
        let logger = Logger.quiet("files")
        let configuration = ServerConfiguration(host: "127.0.0.1", port: 0, dataDirectory: data, rateLimiting: false)
        let app = try await buildApplication(configuration: configuration, logger: logger)
        try await app.test(.router) { client async throws in
            let api = APIClient(client: client)
            #expect(try await api.signUp("hugo").status == .ok)
            // While the database is open its WAL and SHM files exist.
            #expect(try Self.mode(data.path) == 0o700)
            for name in ["tandem.sqlite", "tandem.sqlite-wal", "tandem.sqlite-shm", "auth-secret"] {
                #expect(try Self.mode(data.appendingPathComponent(name).path) == 0o600, "\(name)")
            }
        }
    }

    @Test func anExistingDatabaseIsNarrowedTo0600() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("tandem.sqlite")
        _ = try SQLiteServerStore(fileURL: file)
        #expect(chmod(file.path, 0o644) == 0)
        _ = try SQLiteServerStore(fileURL: file)
        #expect(try Self.mode(file.path) == 0o600)
    }

    @Test func aSecretFileReadableByOthersStopsTheStartWithAClearMessage() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try ServerSecret.loadOrCreate(in: directory.url)
        let secret = directory.url.appendingPathComponent("auth-secret")
        #expect(chmod(secret.path, 0o644) == 0)
        #expect(throws: ServerFilesError.exposed(path: secret.path, mode: 0o644)) {
            try ServerSecret.loadOrCreate(in: directory.url)
        }
        let message = ServerFilesError.exposed(path: secret.path, mode: 0o644).description
        #expect(message.contains("chmod 600"))
        let configuration = ServerConfiguration(dataDirectory: directory.url, rateLimiting: false)
        #expect(throws: ServerFilesError.self) {
            _ = try buildApplication(
                configuration: configuration,
                store: try SQLiteServerStore(fileURL: directory.url.appendingPathComponent("tandem.sqlite")))
        }
    }
}
