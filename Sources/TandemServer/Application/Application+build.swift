import Foundation
public import Hummingbird
public import Logging
import NIOCore
public import ServiceLifecycle
public import TandemServerStore

/// Builds the whole server: tests call this too (`app.test(.router)` / `.live`), so what they
/// exercise is what `tandem serve` runs (STYLE.md; hummingbird template `App+build.swift`).
public func buildApplication(
    configuration: ServerConfiguration, logger: Logger = Logger(label: "tandem.server"),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let store = try await StoreFactory.open(configuration.storage, logger: logger)
    return try buildApplication(
        configuration: configuration, store: store, logger: logger, onServerRunning: onServerRunning)
}

/// Builds the server on a given store (the contract suite and tests pass their own). The
/// application's service group runs, in this order, the store's services, `services`, the
/// sync-write gate, the relay's fan-out and the chain ingester, then the HTTP server; it shuts
/// them down in reverse, so each drains while what it needs still runs.
public func buildApplication(
    configuration: ServerConfiguration, store: any ServerStore, services: [any Service] = [],
    logger: Logger = Logger(label: "tandem.server"),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let secret = try configuration.secret ?? ServerSecret.loadOrCreate(in: configuration.dataDirectory)
    let hub = RelayHub(store: store, capacity: configuration.relay.streamBufferCapacity, logger: logger)
    var chain: ChainParts?
    var chainServices: [any Service] = []
    if let kaspa = configuration.kaspa {
        let status = KasiaChainStatus()
        chain = ChainParts(
            status: status, bridge: KaspaBridge(client: kaspa.bridgeClient(), timeout: kaspa.submitTimeout))
        var ingester = KasiaChainIngester(
            store: store, client: kaspa.ingestClient(), network: kaspa.network.network,
            networkID: kaspa.network.description,
            status: status, clock: configuration.clock,
            logger: logger, startHash: kaspa.startHash, onCommit: { await hub.pokeIfListening() })
        ingester.idlePoll = kaspa.idlePoll
        ingester.rowsPerCommit = kaspa.rowsPerCommit
        ingester.readYield = kaspa.readYield
        chainServices.append(ingester)
    }
    let syncWrites = SyncWriteGate(
        for: store, limits: configuration.syncWrites, paced: configuration.rateLimiting,
        clock: configuration.clock)
    let router = buildRouter(
        configuration: configuration, store: store, secret: secret, hub: hub, syncWrites: syncWrites, chain: chain
    ).router
    let relay = RelayService(hub: hub, store: store, pollInterval: configuration.relay.pollInterval, logger: logger)
    // One guard per connection, counting into one ledger (issue 50 item 5).
    let ledger = ConnectionLedger(limits: configuration.connections)
    let proxies = configuration.trustedProxies
    var app = Application(
        router: router,
        server: .http1(
            configuration: .init(additionalChannelHandlers: [ConnectionGuard(ledger: ledger, proxies: proxies)])),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "tandem"),
        services: store.services + services + [syncWrites, relay] + chainServices,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
        logger: logger)
    // The schema, once, before the server listens. A database unreachable now does not keep the
    // server from starting: its routes answer 503 and the first call that reaches the database
    // migrates it (issue 14: an outage is answered, not hung on).
    app.beforeServerStarts {
        do { try await store.prepare() } catch {
            logger.warning(
                "database not ready at start-up; migrating on first contact", metadata: ["error": "\(error)"])
        }
    }
    return app
}

/// The router and the table of its routes (for the OpenAPI check).
public func buildRouter(
    configuration: ServerConfiguration, store: any ServerStore, secret: String
) -> (router: Router<TandemRequestContext>, routes: [RouteEntry]) {
    let hub = RelayHub(
        store: store, capacity: configuration.relay.streamBufferCapacity, logger: Logger(label: "tandem.relay"))
    return buildRouter(
        configuration: configuration, store: store, secret: secret, hub: hub,
        syncWrites: SyncWriteGate(
            for: store, limits: configuration.syncWrites, paced: configuration.rateLimiting,
            clock: configuration.clock))
}

/// What the routes share with the chain ingester (issue 25): its state for `/health`, and the
/// bridge of relayed Kaspa transactions to the node.
struct ChainParts: Sendable {
    let status: KasiaChainStatus
    let bridge: KaspaBridge
}

/// The router with the relay's fan-out `hub`, which the application's `RelayService` feeds, and
/// the sync-write gate, which its service group runs; tests pass their own `rateLimiter` to look
/// at its table.
func buildRouter(
    configuration: ServerConfiguration, store: any ServerStore, secret: String, hub: RelayHub,
    syncWrites: SyncWriteGate, rateLimiter: RateLimiter? = nil, chain: ChainParts? = nil
) -> (router: Router<TandemRequestContext>, routes: [RouteEntry]) {
    let router = Router(context: TandemRequestContext.self)
    let table = RouteTable()
    // "Database pool use": the store counts its calls in flight at its choke points.
    let metrics = configuration.metrics ? ServerMetrics(database: store.activity) : nil
    let sessions = SessionAuthority(
        store: store, signer: CookieSigner(secret: secret),
        cookies: SessionCookies(secure: configuration.secureCookies),
        clock: configuration.clock)
    let origins = OriginPolicy(trustedOrigins: configuration.trustedOrigins)

    // Metrics outside the front door count the status each request was answered with.
    if let metrics { router.add(middleware: MetricsMiddleware(metrics: metrics)) }
    let allowedMethods = AllowedMethods()
    router.add(
        middleware: FrontDoorMiddleware(
            methods: allowedMethods, proxies: configuration.trustedProxies,
            limiter: configuration.rateLimiting ? rateLimiter ?? RateLimiter(clock: configuration.clock) : nil,
            origins: origins))

    SystemController(store: store, clock: configuration.clock, kaspa: chain?.status).register(on: router, table: table)
    WebAppController().register(on: router, table: table)
    MetricsController(metrics: metrics, hub: hub, chain: chain?.status).register(on: router, table: table)
    AuthController(
        store: store, sessions: sessions, hasher: configuration.passwordHasher, origins: origins,
        clock: configuration.clock
    )
    .register(on: router, table: table)
    // Behind requireAuth: the middleware resolves the session, the child context carries it.
    let guarded = router.group("api/auth").add(middleware: RequireAuthMiddleware(sessions: sessions))
        .group(context: AuthenticatedRequestContext.self)
    SessionController(store: store, sessions: sessions, clock: configuration.clock).register(on: guarded, table: table)
    AccountController(
        store: store, sessions: sessions, hasher: configuration.passwordHasher, origins: origins,
        clock: configuration.clock
    )
    .register(on: guarded, table: table)
    let me = router.group("api/me").add(middleware: RequireAuthMiddleware(sessions: sessions))
        .group(context: AuthenticatedRequestContext.self)
    ProfileController(store: store, clock: configuration.clock).register(on: me, table: table)
    DeviceKeysController(store: store, clock: configuration.clock, gate: syncWrites).register(on: me, table: table)
    let sync = router.group("api").add(middleware: RequireAuthMiddleware(sessions: sessions))
        .group(context: AuthenticatedRequestContext.self)
    let quotas = configuration.syncQuotas
    let limits = configuration.syncWrites
    let shares =
        configuration.rateLimiting
        ? TokenBucketLimiter(
            clock: configuration.clock,
            policy: .init(burst: Double(limits.shareBurst), perSecond: limits.sharesPerHour / 3600))
        : nil
    RedoNodesController(
        store: store, clock: configuration.clock, gate: syncWrites, quota: quotas.nodes, shares: shares
    )
    .register(on: sync, table: table)
    TaskInvitationsController(store: store, clock: configuration.clock, gate: syncWrites)
        .register(on: sync, table: table)
    SealedRecordsController(route: .contacts, store: store, gate: syncWrites, quota: quotas.contacts)
        .register(on: sync, table: table)
    SealedRecordsController(route: .taskPresets, store: store, gate: syncWrites, quota: quotas.taskPresets)
        .register(on: sync, table: table)
    SealedRecordsController(route: .chatHistory, store: store, gate: syncWrites, quota: quotas.chatHistory)
        .register(on: sync, table: table)

    let relay = configuration.relay
    let limiter =
        configuration.rateLimiting
        ? TokenBucketLimiter(
            clock: configuration.clock,
            policy: .init(burst: relay.submissionBurst, perSecond: relay.submissionsPerSecond))
        : nil
    RelayController(store: store, hub: hub, clock: configuration.clock, limiter: limiter, bridge: chain?.bridge)
        .register(on: router, table: table)
    IndexerController(store: store).register(on: router, table: table)
    RelayStreamController(store: store, hub: hub, heartbeat: relay.heartbeatInterval).register(on: router, table: table)
    allowedMethods.freeze(table.entries)
    return (router, table.entries)
}

/// Trailing slashes and `//` are 404 like better-call's router (betterauth-api.md §1); the
/// Hummingbird trie would otherwise ignore them. The one exception is the web app's page,
/// `/app/` (issue 28), whose relative links need the slash; its handler sends `/app` there.
enum StrictPath {
    static func refuses(_ path: String) -> Bool { isLoose(path) && path != "/app/" }

    /// A doubled slash anywhere, or a trailing slash after the root. One pass over the UTF-8:
    /// Foundation's `contains` costs about 1% of a relay submission (BENCHMARKS.md, relay).
    static func isLoose(_ path: String) -> Bool {
        var previousWasSlash = false
        var count = 0
        for byte in path.utf8 {
            let isSlash = byte == UInt8(ascii: "/")
            if isSlash && previousWasSlash { return true }
            previousWasSlash = isSlash
            count += 1
        }
        return count > 1 && previousWasSlash
    }
}
