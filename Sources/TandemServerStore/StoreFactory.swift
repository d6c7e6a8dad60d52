import Foundation
public import Logging
public import ServiceLifecycle

/// Opens the configured backend; PostgreSQL adds its connection pool as a service that the
/// application's service group runs and shuts down. Every call of a PostgreSQL store is bounded
/// in time at its choke points (`StorePolicy`), so an unreachable database answers 503 rather
/// than hanging.
public enum StoreFactory {
    public static func open(_ backend: StorageBackend, logger: Logger) async throws -> (
        store: any ServerStore, services: [any Service]
    ) {
        switch backend {
        case .sqlite(let directory):
            return (try SQLiteServerStore(fileURL: directory.appendingPathComponent("tandem.sqlite")), [])
        case .postgres(let url):
            let store = try PostgresServerStore(url: url, logger: logger)
            return (store, [store.service])
        }
    }
}
