public import Logging
import ServiceLifecycle

/// A port a simulated node is serving, as ``SimulatedKaspaNode/serve(_:blockInterval:logger:frameObserver:_:)``
/// hands it to its body.
public struct RunningNodeServer: Sendable {
    public let port: Int
    public let switches: NodeSwitches

    /// `ws://127.0.0.1:<port>`: what a wRPC client connects to.
    public var url: String { "ws://127.0.0.1:\(port)" }
    /// `http://127.0.0.1:<port>/sim`: the control API's root.
    public var controlURL: String { "http://127.0.0.1:\(port)/sim" }
    /// `http://127.0.0.1:<port>`: the kasia-indexer routes' root, as K-Kluster's indexer serves
    /// them (what `--indexer` names).
    public var indexerURL: String { "http://127.0.0.1:\(port)" }
}

extension SimulatedKaspaNode {
    /// Serves this node on one port per configuration (port 0: a free one) while `body` runs,
    /// then drops every connection and shuts the servers down. With `blockInterval`, a
    /// ``BlockProducer`` mines meanwhile; with `frameObserver`, every frame of every connection
    /// is stamped and handed to it (``NodeFrameEvent``).
    public nonisolated func serve<T>(
        _ configurations: [SimulatedNodeConfiguration] = [.init()], blockInterval: Duration? = nil,
        logger: Logger = SimulatedNodeServer.defaultLogger, frameObserver: NodeFrameObserver? = nil,
        _ body: ([RunningNodeServer]) async throws -> T
    ) async throws -> T {
        let switches = configurations.map { _ in NodeSwitches() }
        let (ports, sink) = AsyncStream.makeStream(of: (index: Int, port: Int).self)
        var services: [any Service] = configurations.indices.map { index in
            SimulatedNodeServer(
                node: self, configuration: configurations[index], switches: switches[index], logger: logger,
                frameObserver: frameObserver, onRunning: { sink.yield((index, $0)) })
        }
        if let blockInterval { services.append(BlockProducer(node: self, interval: blockInterval)) }
        let group = ServiceGroup(services: services, gracefulShutdownSignals: [], logger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask {
                defer { sink.finish() }
                try await group.run()
            }
            var found: [Int: Int] = [:]
            for await (index, port) in ports {
                found[index] = port
                if found.count == configurations.count { break }
            }
            guard found.count == configurations.count else {
                // The group ended before every port listened: its error says why.
                try await tasks.waitForAll()
                throw CancellationError()
            }
            let running = configurations.indices.map { RunningNodeServer(port: found[$0] ?? 0, switches: switches[$0]) }
            let outcome: Result<T, any Error>
            do { outcome = .success(try await body(running)) } catch { outcome = .failure(error) }
            for server in switches { await server.dropConnections() }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
            return try outcome.get()
        }
    }
}
