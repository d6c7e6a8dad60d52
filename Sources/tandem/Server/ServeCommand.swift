import ArgumentParser
import CommandLineContract
import Foundation
import Hummingbird
import KaspaRPC
import Logging
import TandemBasics
import TandemNIOTransport
import TandemServer
import TandemServerStore

/// `tandem serve`: the BetterAuth-compatible account server (issue 4).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "Run the Tandem server (accounts API and Kasia relay; SQLite by default, PostgreSQL with --database-url-file, DATABASE_URL or --database-url).",
        discussion: """
            Stops gracefully on SIGINT/SIGTERM. Prints one line `listening on http://HOST:PORT` to stdout \
            once the socket is bound (with --port 0 the system picks the port). Logs go to stderr \
            (LOG_LEVEL=debug|info|warning; --log-format json for one JSON object per line, with request ids). \
            The cookie secret is BETTER_AUTH_SECRET, or a random one kept in DATA_DIR/auth-secret (0600; the \
            server refuses to start when group or others can read it). The data directory is created 0700 and \
            the database files 0600. Behind a TLS reverse proxy pass --public-url https://… and --trusted-proxy.

            With --kaspa-node (repeatable) and --kaspa-network the server also follows a Kaspa node's \
            virtual chain and indexes every accepted Kasia transaction into the /kasia routes (a \
            kasia-indexer anyone can run), starting at the stored position, else --kaspa-start-hash, else \
            the node's pruning point; /health reports "kaspa": {"node","synced","lagBlocks","role","error"}. \
            Signed Kaspa transactions posted to /kasia/transactions are then also submitted to the node. \
            On PostgreSQL one instance ingests at a time; another takes over within 10 s when it stops.
            """
    )

    @Option(name: .long, help: "Address to bind.") var host = "127.0.0.1"
    @Option(name: .long, help: "Port to bind (0: any free port).") var port = 8080
    @Option(
        name: .long, help: ArgumentHelp("Directory for the SQLite database and the cookie secret.", valueName: "dir"))
    var dataDir = "./tandem-data"
    @OptionGroup var database: DatabaseURLOptions
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Extra trusted Origin (repeatable), e.g. https://app.example or myapp://.", valueName: "origin"))
    var trustedOrigin: [String] = []
    @Flag(name: .long, help: "Secure cookies (__Secure- names, Secure attribute) for serving behind HTTPS.")
    var secureCookies = false
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The URL clients use (behind a TLS proxy: https://chat.example). Its origin is trusted; https turns on secure cookies.",
            valueName: "url"))
    var publicURL: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Reverse proxy whose X-Forwarded-For names the client for rate limits (repeatable), e.g. 127.0.0.1/32.",
            valueName: "cidr"))
    var trustedProxy: [String] = []
    @Flag(name: .long, help: "Serve Prometheus metrics at GET /metrics (off by default; scrape it, do not publish it).")
    var metrics = false
    @Option(name: .long, help: ArgumentHelp("Log format on stderr: text or json.", valueName: "format"))
    var logFormat = "text"
    @Flag(
        name: .long, inversion: .prefixedNo,
        help:
            "Rate-limit sign-in, sign-up, is-username-available, change-password and delete-user (3 per 10 s per IP), other auth POSTs (100 per 10 s per IP), and relay submissions (bursts of 20, 1/s per sender and per IP)."
    )
    var rateLimit = true
    @Option(
        name: .long,
        help: ArgumentHelp(
            "PostgreSQL: sync writes (node pushes, contact puts, shares, device keys) that may wait in the server's queue; one more is answered 429 SYNC_BUSY with Retry-After. SQLite does not queue them.",
            valueName: "n"))
    var syncQueueLimit = SyncWriteLimits().maxWaiting
    @Option(
        name: .long,
        help: ArgumentHelp("PostgreSQL: queued sync writes one account may have waiting.", valueName: "n"))
    var syncQueuePerAccount = SyncWriteLimits().maxWaitingPerAccount
    @Option(
        name: .long,
        help: ArgumentHelp(
            "PostgreSQL: seconds a sync write may wait in the queue before 429 SYNC_BUSY.", valueName: "s"))
    var syncQueueWait = Int(SyncWriteLimits().maxWait.components.seconds)
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Sync writes (pushes, contact and preset puts, shares, device keys) one account may make in a burst; past it 429 RATE_LIMITED with Retry-After.",
            valueName: "n"))
    var syncWriteBurst = SyncWriteLimits().writeBurst
    @Option(
        name: .long,
        help: ArgumentHelp("Sync writes per second one account may sustain after its burst.", valueName: "n"))
    var syncWriteRate = SyncWriteLimits().writesPerSecond
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Task shares one account may make in a burst; past it 429 RATE_LIMITED with Retry-After.", valueName: "n"))
    var shareBurst = SyncWriteLimits().shareBurst
    @Option(
        name: .long, help: ArgumentHelp("Task shares per hour one account may sustain after its burst.", valueName: "n")
    )
    var shareRate = Int(SyncWriteLimits().sharesPerHour)
    @Option(
        name: .long,
        help: ArgumentHelp(
            "What one account's pushed task nodes may take (default 1000000:1073741824); past it 413 QUOTA_EXCEEDED.",
            valueName: "rows:bytes"))
    var quotaNodes: String?
    @Option(
        name: .long,
        help: ArgumentHelp("The same for contact records (default 100000:67108864).", valueName: "rows:bytes"))
    var quotaContacts: String?
    @Option(
        name: .long,
        help: ArgumentHelp("The same for saved task filters (default 10000:16777216).", valueName: "rows:bytes"))
    var quotaPresets: String?
    @Option(
        name: .long,
        help: ArgumentHelp("The same for chat history records (default 2000000:2147483648).", valueName: "rows:bytes"))
    var quotaChat: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Open connections (an event stream is one) one client address may hold; behind --trusted-proxy, per forwarded address. One more is answered 503 with Retry-After.",
            valueName: "n"))
    var maxConnectionsPerAddress = ConnectionLimits().connectionsPerAddress
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds a new connection has to send its request head (and a body to pass 1 KiB/s); kept-alive connections idle 60 s.",
            valueName: "s"))
    var headerTimeout = Int(ConnectionLimits().headerTimeout.components.seconds)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A Kaspa node's wRPC JSON endpoint to index Kasia from (repeatable; failed over in order).",
            valueName: "ws://host:port"))
    var kaspaNode: [String] = []
    @Option(name: .long, help: ArgumentHelp("The Kaspa network of --kaspa-node.", valueName: "mainnet|testnet-10"))
    var kaspaNetwork: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Chain block to start a fresh index at (default: the node's pruning point).", valueName: "hash"))
    var kaspaStartHash: String?
    /// scrypt's N for new and checked passwords (issue 45 item 2): BetterAuth's 16384 unless a
    /// test suite lowers it to spend no CPU on hashing. Hidden: a server that lowers it cannot
    /// check the passwords BetterAuth or another Tandem server hashed.
    @Option(name: .long, help: .hidden) var passwordRounds = PasswordHasher.betterAuthRounds

    func validate() throws {
        guard passwordRounds > 1, passwordRounds <= 1 << 20, passwordRounds & (passwordRounds - 1) == 0 else {
            throw CLIError("--password-rounds \(passwordRounds): a power of two from 2 to 1048576")
        }
        _ = try kaspaIndex()
        guard (0...65_535).contains(port) else { throw CLIError("--port \(port): must be 0…65535") }
        _ = try database.resolved()
        if let publicURL, Self.origin(of: publicURL) == nil {
            throw CLIError("--public-url \(publicURL): expected an http:// or https:// URL")
        }
        if TrustedProxies(cidrs: trustedProxy) == nil {
            throw CLIError("--trusted-proxy: expected CIDR blocks such as 10.0.0.0/8 or ::1/128")
        }
        for (name, value) in [
            ("--sync-queue-limit", syncQueueLimit), ("--sync-queue-per-account", syncQueuePerAccount),
            ("--sync-queue-wait", syncQueueWait), ("--max-connections-per-address", maxConnectionsPerAddress),
            ("--header-timeout", headerTimeout), ("--sync-write-burst", syncWriteBurst),
            ("--share-burst", shareBurst), ("--share-rate", shareRate),
        ] where !(1...1_000_000).contains(value) {
            throw CLIError("\(name) \(value): must be 1…1000000")
        }
        guard syncWriteRate.isFinite, syncWriteRate > 0, syncWriteRate <= 1_000_000 else {
            throw CLIError("--sync-write-rate \(syncWriteRate): must be above 0 and at most 1000000")
        }
        guard ["text", "json"].contains(logFormat) else { throw CLIError("--log-format \(logFormat): text or json") }
        _ = try syncQuotas()
    }

    /// The quotas of `--quota-*`, each `ROWS:BYTES` of positive integers.
    func syncQuotas() throws -> SyncQuotas {
        func parse(_ text: String?, _ option: String, _ fallback: SyncQuota) throws -> SyncQuota {
            guard let text else { return fallback }
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let rows = Int64(parts[0]), let bytes = Int64(parts[1]), rows > 0, bytes > 0 else {
                throw CLIError("--\(option) \(text): expected ROWS:BYTES, two positive integers")
            }
            return SyncQuota(rows: rows, bytes: bytes)
        }
        let defaults = SyncQuotas()
        return SyncQuotas(
            nodes: try parse(quotaNodes, "quota-nodes", defaults.nodes),
            contacts: try parse(quotaContacts, "quota-contacts", defaults.contacts),
            taskPresets: try parse(quotaPresets, "quota-presets", defaults.taskPresets),
            chatHistory: try parse(quotaChat, "quota-chat", defaults.chatHistory))
    }

    /// `scheme://host[:port]` of an http(s) URL.
    static func origin(of text: String) -> String? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { return nil }
        return "\(scheme)://\(host.lowercased())" + (url.port.map { ":\($0)" } ?? "")
    }

    /// The chain index's configuration from the `--kaspa-*` options; nil without `--kaspa-node`.
    func kaspaIndex() throws -> KaspaIndexConfiguration? {
        guard !kaspaNode.isEmpty else {
            if kaspaNetwork != nil || kaspaStartHash != nil {
                throw CLIError("--kaspa-network and --kaspa-start-hash need --kaspa-node")
            }
            return nil
        }
        var nodes: [URL] = []
        for text in kaspaNode {
            guard let url = URL(string: text), ["ws", "wss"].contains(url.scheme?.lowercased() ?? ""),
                url.host?.isEmpty == false
            else {
                throw CLIError(
                    "--kaspa-node \(URLRedaction.redact(text, keepingUser: false)): expected a ws:// or wss:// URL")
            }
            nodes.append(url)
        }
        guard let kaspaNetwork else { throw CLIError("--kaspa-node needs --kaspa-network mainnet or testnet-10") }
        guard let network = KaspaNetworkID(kaspaNetwork), network == .mainnet || network == .testnet10 else {
            throw CLIError("--kaspa-network \(kaspaNetwork): mainnet or testnet-10")
        }
        if let kaspaStartHash {
            let isHash = kaspaStartHash.count == 64 && kaspaStartHash.allSatisfy(\.isHexDigit)
            guard isHash else { throw CLIError("--kaspa-start-hash \(kaspaStartHash): expected 64 hex characters") }
        }
        return KaspaIndexConfiguration(
            nodes: nodes, network: network, startHash: kaspaStartHash?.lowercased(),
            transport: WebSocketClientTransport(),
            ingestTransport: WebSocketClientTransport(eventLoopGroup: BackgroundEventLoop.group))
    }

    /// The sync-write queue's bounds from the `--sync-queue-*` options.
    var syncWriteLimits: SyncWriteLimits {
        SyncWriteLimits(
            maxWaiting: syncQueueLimit, maxWaitingPerAccount: syncQueuePerAccount, maxWait: .seconds(syncQueueWait),
            writeBurst: syncWriteBurst, writesPerSecond: syncWriteRate, shareBurst: shareBurst,
            sharesPerHour: Double(shareRate))
    }

    func run() async throws {
        let level = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        let json = logFormat == "json"
        LoggingSystem.bootstrap { label in
            if json { return JSONLogHandler.standardError(label: label, level: level) }
            // Metadata is rendered when a line is written, not on every request's
            // `request_id` (DeferredMetadataLogHandler); the lines are StreamLogHandler's.
            var handler = DeferredMetadataLogHandler(StreamLogHandler.standardError(label: label))
            handler.logLevel = level
            return handler
        }
        let dataDirectory = URL(fileURLWithPath: dataDir)
        let secret = ProcessInfo.processInfo.environment["BETTER_AUTH_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        if let secret, secret.utf8.count < 32 {
            Logger(label: "tandem.serve").warning("BETTER_AUTH_SECRET is shorter than 32 characters")
        }
        var configuration = ServerConfiguration(
            host: host, port: port,
            storage: try database.resolved().map { .postgres(url: $0) } ?? .sqlite(dataDirectory: dataDirectory),
            dataDirectory: dataDirectory, secret: secret,
            trustedOrigins: trustedOrigin + (publicURL.flatMap(Self.origin(of:)).map { [$0] } ?? []),
            secureCookies: secureCookies || publicURL.flatMap(Self.origin(of:))?.hasPrefix("https://") == true,
            rateLimiting: rateLimit, trustedProxies: TrustedProxies(cidrs: trustedProxy) ?? .none, metrics: metrics,
            syncWrites: syncWriteLimits, kaspa: try kaspaIndex(),
            connections: ConnectionLimits(
                headerTimeout: .seconds(headerTimeout), connectionsPerAddress: maxConnectionsPerAddress))
        configuration.syncQuotas = try syncQuotas()
        if passwordRounds != PasswordHasher.betterAuthRounds {
            configuration.passwordHasher = PasswordHasher(rounds: passwordRounds)
            Logger(label: "tandem.serve").warning(
                "passwords hashed with scrypt N=\(passwordRounds), not BetterAuth's \(PasswordHasher.betterAuthRounds): for tests only"
            )
        }
        let app = try await Self.build(configuration, host: host)
        do { try await app.runService() } catch {
            throw ListenFailure.describe(error, host: host, port: port) ?? error
        }
        CommandIO.writeError("tandem: the server stopped")
    }

    /// Builds the application; a failure (unreadable data dir, bad database URL) is one CLI line.
    static func build(_ configuration: ServerConfiguration, host: String) async throws -> some ApplicationProtocol {
        do {
            return try await buildApplication(configuration: configuration) { boundPort in
                CommandIO.write("listening on http://\(host):\(boundPort)\n")
                let shown = host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host
                CommandIO.writeError(
                    "tandem: the tasks app is at http://\(shown):\(boundPort)/app/ (Ctrl-C stops the server)")
            }
        } catch {
            throw CLIError("cannot start the server: \(CommandLineContract.plainText(error))")
        }
    }
}
