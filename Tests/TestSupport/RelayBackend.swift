public import Foundation

/// Where a test's `tandem serve` keeps its rows: SQLite always; PostgreSQL too when
/// `POSTGRES_URL` is set (CI starts a throw-away cluster, `.ci/run`).
///
/// Each PostgreSQL test gets a database of its own, created and dropped with `psql`: the
/// storage contract suite empties the shared database between its tests, which would wipe
/// rows under a chat test running at the same time.
public enum RelayBackend: String, CaseIterable, CustomStringConvertible, Sendable {
    case sqlite, postgres
    public var description: String { rawValue }

    public static var available: [RelayBackend] {
        ProcessInfo.processInfo.environment["POSTGRES_URL"] == nil ? [.sqlite] : [.sqlite, .postgres]
    }

    /// Runs `body` with the `--database-url` of a fresh scratch database (nil for SQLite).
    public func withDatabase<T>(_ body: (String?) async throws -> T) async throws -> T {
        guard self == .postgres else { return try await body(nil) }
        guard let base = ProcessInfo.processInfo.environment["POSTGRES_URL"] else { throw PostgresUnavailable() }
        let name = "tandem_cli_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await Self.psql(base, "CREATE DATABASE \(name)")
        do {
            let result = try await body(try Self.url(base, database: name))
            _ = try? await Self.psql(base, "DROP DATABASE \(name) WITH (FORCE)")
            return result
        } catch {
            _ = try? await Self.psql(base, "DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }

    /// `base` with its database path replaced by `database`.
    public static func url(_ base: String, database: String) throws -> String {
        guard var components = URLComponents(string: base) else { throw PostgresUnavailable() }
        components.path = "/" + database
        guard let url = components.string else { throw PostgresUnavailable() }
        return url
    }

    /// Runs one SQL command with `psql` and returns its unaligned, tuples-only output.
    @discardableResult
    public static func psql(_ url: String, _ sql: String) async throws -> String {
        let result = try await ChildProcess.collect(
            try psqlBinary(), ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql])
        guard result.status == 0 else { throw PSQLFailure(sql: sql) }
        return String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func psqlBinary() throws -> URL {
        let fixed = ["/usr/bin/psql"]
        let versioned =
            ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []).sorted().reversed()
            .map { "/usr/lib/postgresql/\($0)/bin/psql" }
        guard let path = (fixed + versioned).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw PostgresUnavailable()
        }
        return URL(fileURLWithPath: path)
    }

    public struct PSQLFailure: Error {
        public let sql: String
    }

    /// `POSTGRES_URL` is unset or unusable, or no `psql` is installed.
    public struct PostgresUnavailable: Error {}
}
