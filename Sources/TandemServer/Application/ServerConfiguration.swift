public import Foundation
public import TandemBasics
public import TandemServerStore

/// Everything `buildApplication(configuration:)` needs.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var storage: StorageBackend
    /// HMAC key for session cookies (`BETTER_AUTH_SECRET`). When nil, a random secret is kept in
    /// `auth-secret` (0600) in the data directory, so sessions survive restarts.
    public var secret: String?
    /// Directory for the secret file (and the SQLite file for `.sqlite`).
    public var dataDirectory: URL
    /// Extra trusted origins (`https://app.example`, `myapp://`), besides the server's own.
    public var trustedOrigins: [String]
    /// `__Secure-` cookie names and the `Secure` attribute (behind HTTPS).
    public var secureCookies: Bool
    /// Rate limits on auth POSTs (betterauth-api.md §11).
    public var rateLimiting: Bool
    /// Proxies whose `X-Forwarded-For` names the client for rate limits (issue 13).
    public var trustedProxies: TrustedProxies
    /// Serve `GET /metrics` (Prometheus text). Off by default: the figures describe the
    /// deployment's traffic, which an operator shows to their scraper, not to the world.
    public var metrics: Bool
    public var clock: any WallClock
    /// The Kasia relay's stream and rate-limit tunables (issue 11).
    public var relay: RelayConfiguration
    /// The bounds of the in-process queue of sync writes (PostgreSQL; `SyncWriteGate`).
    public var syncWrites: SyncWriteLimits
    /// The Kaspa nodes to index Kasia from and bridge submissions to (issue 25); nil: relay only.
    public var kaspa: KaspaIndexConfiguration?
    /// BetterAuth's scrypt; tests that make many accounts pass a lower cost (issue 45 item 2).
    public var passwordHasher: PasswordHasher
    /// How long a request may take to arrive and how many connections a client may hold
    /// (issue 50 item 5; ``ConnectionGuard``).
    public var connections: ConnectionLimits
    /// What one account may keep in each synced collection (issue 50 item 6; `SyncQuota`).
    public var syncQuotas = SyncQuotas()

    public init(
        host: String = "127.0.0.1", port: Int = 8080, storage: StorageBackend? = nil,
        dataDirectory: URL = URL(fileURLWithPath: "tandem-data"), secret: String? = nil,
        trustedOrigins: [String] = [], secureCookies: Bool = false, rateLimiting: Bool = true,
        clock: any WallClock = SystemClock(), relay: RelayConfiguration = RelayConfiguration(),
        trustedProxies: TrustedProxies = .none, metrics: Bool = false,
        syncWrites: SyncWriteLimits = SyncWriteLimits(), kaspa: KaspaIndexConfiguration? = nil,
        passwordHasher: PasswordHasher = PasswordHasher(), connections: ConnectionLimits = ConnectionLimits()
    ) {
        self.host = host
        self.port = port
        self.storage = storage ?? .sqlite(dataDirectory: dataDirectory)
        self.dataDirectory = dataDirectory
        self.secret = secret
        self.trustedOrigins = trustedOrigins
        self.secureCookies = secureCookies
        self.rateLimiting = rateLimiting
        self.clock = clock
        self.relay = relay
        self.trustedProxies = trustedProxies
        self.metrics = metrics
        self.syncWrites = syncWrites
        self.kaspa = kaspa
        self.passwordHasher = passwordHasher
        self.connections = connections
    }
}
