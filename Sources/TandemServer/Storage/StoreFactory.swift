import Foundation
public import Logging
public import ServiceLifecycle

/// Opens the configured backend; PostgreSQL adds its connection pool as a service that the
/// application's service group runs and shuts down, and every operation is bounded in time
/// (`DeadlineStore`) so an unreachable database answers 503 rather than hanging.
public enum StoreFactory {
    public static func open(_ backend: StorageBackend, logger: Logger) async throws -> (
        store: any ServerStore, services: [any Service]
    ) {
        switch backend {
        case .sqlite(let directory):
            return (try SQLiteServerStore(fileURL: directory.appendingPathComponent("tandem.sqlite")), [])
        case .postgres(let url):
            let store = try PostgresServerStore(url: url, logger: logger)
            let bounded = DeadlineStore(
                store, timeout: PostgresServerStore.operationTimeout,
                isUnavailable: PostgresServerStore.isConnectionFailure)
            return (bounded, [store.service])
        }
    }
}
