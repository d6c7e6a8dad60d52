import Logging
import PostgresNIO
import ServiceLifecycle

/// The PostgreSQL pool behind the backend's choke points (issue 26 item 2): every query,
/// connection lease and transaction a store method makes goes through ``StorePolicy`` here —
/// counted while in flight, bounded by the store deadline, a lost connection turned into
/// ``ServerStoreError/unavailable(_:)`` — so no wrapper around the store repeats its methods.
///
/// Two uses hold a connection for as long as they run and so take no deadline: LISTEN for the
/// relay's fan-out and the chain ingester's advisory lock (``holdingConnection(_:)``).
struct PostgresDatabase: Sendable {
    private let client: PostgresClient
    let policy: StorePolicy
    private let migrations = PostgresMigrations()
    private let logger: Logger

    init(client: PostgresClient, policy: StorePolicy, logger: Logger) {
        self.client = client
        self.service = OnceService(client)
        self.policy = policy
        self.logger = logger
    }

    /// Brings the schema up to date, once per process: at start-up (`ServerStore.prepare()`,
    /// run before the server listens), and, should the database have been unreachable then, on
    /// the first call that reaches it (a flag read after that).
    /// Bounded by the store deadline, so a database down at start-up delays the server by at
    /// most that long.
    func migrate() async throws {
        let (client, migrations, logger) = (client, migrations, logger)
        try await policy.run { try await migrations.runOnce(client: client, logger: logger) }
    }

    /// The pool as a swift-service-lifecycle service; it runs once (``OnceService``).
    let service: any Service

    /// One statement and its whole answer: the rows are read inside the policy, so the deadline,
    /// the in-flight count and the 503 for a lost connection cover them too (a row sequence read
    /// after the call returned would hold the connection outside all three).
    @discardableResult
    func query(_ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        let (client, migrations, migrationLogger) = (client, migrations, self.logger)
        return try await policy.run {
            try await migrations.runOnce(client: client, logger: migrationLogger)
            return try await client.query(query, logger: logger).collect()
        }
    }

    /// A named statement, prepared once per connection and then only bound and executed: one
    /// round trip without the parse and plan of the statement's text (issue 49 item 6, the
    /// session read behind every authenticated request). Read whole, like ``query(_:logger:)``.
    func execute<Statement: PostgresPreparedStatement>(_ statement: Statement, logger: Logger) async throws
        -> [Statement.Row] where Statement.Row: Sendable
    {
        let (client, migrations, migrationLogger) = (client, migrations, self.logger)
        return try await policy.run {
            try await migrations.runOnce(client: client, logger: migrationLogger)
            var rows: [Statement.Row] = []
            for try await row in try await client.execute(statement, logger: logger) { rows.append(row) }
            return rows
        }
    }

    func withConnection<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async throws -> T)
        async throws -> T
    {
        let (client, migrations, logger) = (client, migrations, logger)
        return try await policy.run {
            try await migrations.runOnce(client: client, logger: logger)
            return try await client.withConnection { try await body($0) }
        }
    }

    func withTransaction<T: Sendable>(
        logger: Logger, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let (client, migrations, migrationLogger) = (client, migrations, self.logger)
        return try await policy.run {
            try await migrations.runOnce(client: client, logger: migrationLogger)
            return try await client.withTransaction(logger: logger) { try await body($0) }
        }
    }

    /// A connection held for as long as `body` runs, with no deadline: LISTEN and the ingester lock.
    func holdingConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await migrations.runOnce(client: client, logger: logger)
        return try await client.withConnection(body)
    }
}

/// Rows read whole by ``PostgresDatabase/query(_:logger:)``, decoded as PostgresNIO decodes a
/// row sequence.
extension [PostgresRow] {
    func decode<Column: PostgresDecodable>(_ column: Column.Type) throws -> [Column] {
        try map { try $0.decode(column) }
    }

    func decode<each Column: PostgresDecodable>(_ columns: (repeat each Column).Type) throws -> [(repeat each Column)] {
        try map { try $0.decode(columns) }
    }
}
