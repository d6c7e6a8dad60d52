import Foundation
public import Logging

/// Opens the configured backend; its `services` (PostgreSQL's connection pool, the relay's group
/// committer) are what the application's service group runs and shuts down. Every call of a PostgreSQL store is bounded
/// in time at its choke points (`StorePolicy`), so an unreachable database answers 503 rather
/// than hanging.
public enum StoreFactory {
    public static func open(_ backend: StorageBackend, logger: Logger) async throws -> any ServerStore {
        switch backend {
        case .sqlite(let directory):
            try SQLiteServerStore(fileURL: directory.appendingPathComponent("tandem.sqlite"))
        case .postgres(let url):
            try PostgresServerStore(url: url, logger: logger)
        }
    }
}
