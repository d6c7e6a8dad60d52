import Hummingbird
import HummingbirdWebSocket
public import Logging
import NIOCore
public import ServiceLifecycle

/// One port of a simulated node: wRPC JSON over a WebSocket at `/` (text frames, one JSON frame
/// per message, kaspa-node.md §2), the HTTP control API under `/sim/` (``ControlAPI``), and the
/// kasia-indexer routes computed from the chain (``IndexerAPI``; kaspa-node.md §10).
/// Several servers on one ``SimulatedKaspaNode`` are several "nodes" on one chain; each has its
/// own ``NodeSwitches``.
public struct SimulatedNodeServer: Service {
    public let node: SimulatedKaspaNode
    public let switches: NodeSwitches
    public let configuration: SimulatedNodeConfiguration
    private let logger: Logger
    private let frameObserver: NodeFrameObserver?
    private let onRunning: @Sendable (Int) async -> Void

    /// `onRunning` is told the port once the server listens (the real one when asked for 0);
    /// `frameObserver`, every frame its connections read and write.
    public init(
        node: SimulatedKaspaNode, configuration: SimulatedNodeConfiguration = .init(),
        switches: NodeSwitches = NodeSwitches(), logger: Logger = SimulatedNodeServer.defaultLogger,
        frameObserver: NodeFrameObserver? = nil, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) {
        self.node = node
        self.switches = switches
        self.configuration = configuration
        self.logger = logger
        self.frameObserver = frameObserver
        self.onRunning = onRunning
    }

    /// Warnings and worse only: a connection's coming and going is not news.
    public static var defaultLogger: Logger {
        var logger = Logger(label: "kaspa.simnode")
        logger.logLevel = .warning
        return logger
    }

    public func run() async throws {
        try await application().run()
    }

    private func application() -> some ApplicationProtocol {
        let router = Router()
        if configuration.controlAPI {
            ControlAPI(node: node, switches: switches, traffic: node.traffic).register(on: router)
        }
        if configuration.kasiaIndexer { IndexerAPI(node: node).register(on: router) }
        // `/` without an upgrade: a WebSocket endpoint (426), or a refusing port (503).
        router.get("/") { [switches] _, _ in
            Response(status: await switches.state.refusesConnections ? .serviceUnavailable : .upgradeRequired)
        }
        let webSocket = WebSocketServerConfiguration(
            maxFrameSize: configuration.maximumFrameSize, autoPing: .disabled, closeTimeout: .seconds(2))
        let node = node
        let switches = switches
        let onRunning = onRunning
        let connection = RPCConnection(
            node: node, switches: switches, configuration: configuration, frameObserver: frameObserver)
        return Application(
            router: router,
            server: .http1WebSocketUpgrade(configuration: .init(ws: webSocket)) { request, channel, _ in
                try await Self.upgrade(request, channel: channel, switches: switches, connection: connection)
            },
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port), serverName: "tandem-simnode"),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                await node.register(port: port, switches: switches)
                await onRunning(port)
            },
            logger: logger)
    }

    /// Upgrades requests for `/` (with any query) unless the port refuses connections; those go on to the router,
    /// whose `GET /` answers 503. (Closing the TCP connection instead left swift-websocket's client
    /// waiting for an upgrade answer that never came.)
    private static func upgrade(
        _ request: HTTPRequest, channel: any Channel, switches: NodeSwitches, connection: RPCConnection
    ) async throws -> ShouldUpgradeResult<WebSocketDataHandler<HTTP1WebSocketUpgradeChannel.Context>> {
        // The query is the client's (a hosted node's API token rides there), not part of the path.
        guard request.path?.split(separator: "?", maxSplits: 1).first == "/" else { return .dontUpgrade }
        if await switches.state.refusesConnections { return .dontUpgrade }
        await switches.register(channel)
        return .upgrade([:]) { inbound, outbound, _ in
            await connection.run(inbound: inbound, outbound: outbound)
            await switches.unregister(channel)
        }
    }
}
