import Foundation
import HummingbirdWebSocket
import KaspaRPC
import ServiceLifecycle

/// One WebSocket connection to the simulated node: requests are read and answered in order,
/// while chain updates become the notifications this connection subscribed to. Either side
/// ending (the client closing, a drop, the server's graceful shutdown) ends both.
struct RPCConnection: Sendable {
    let node: SimulatedKaspaNode
    let switches: NodeSwitches
    let configuration: SimulatedNodeConfiguration
    /// Told of every frame read and written, when a bench watches (``NodeFrameEvent``).
    let frameObserver: NodeFrameObserver?

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async {
        let (listener, updates) = await node.updates()
        let subscriptions = ConnectionSubscriptions(listenerID: listener)
        let responder = RPCResponder(
            node: node, switches: switches, configuration: configuration, subscriptions: subscriptions)
        let maximumSize = configuration.maximumFrameSize
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for try await message in inbound.messages(maxSize: maximumSize) {
                        // JSON encoding speaks in text frames; binary ones are not for this node.
                        guard case .text(let text) = message else { continue }
                        let read = ContinuousClock.now
                        switch await responder.answer(Data(text.utf8)) {
                        case .answer(let method, let answer):
                            observe(listener, .request(method: method), text, at: read)
                            observe(listener, .answer(method: method), answer, at: .now)
                            try await outbound.write(.text(answer))
                        case .silence: continue
                        // As rusty-kaspa does with a frame it cannot route (kaspa-node.md §11).
                        case .close: return
                        }
                    }
                }
                group.addTask {
                    for await update in updates {
                        for (notification, text) in await notifications(for: update, subscriptions: subscriptions) {
                            observe(listener, .notification(notification), text, at: .now)
                            try await outbound.write(.text(text))
                        }
                    }
                }
                // A shutting-down server ends its connections rather than wait for clients to.
                group.addTask { try await gracefulShutdown() }
                try await group.next()
                group.cancelAll()
            }
        } catch {
            // A write to a closed connection: the connection is over either way.
        }
        await node.removeListener(listener)
    }

    /// Hands the observer, if any, one frame of this connection.
    private func observe(
        _ connection: UInt64, _ kind: NodeFrameEvent.Kind, _ frame: String, at instant: ContinuousClock.Instant
    ) {
        frameObserver?.observe(NodeFrameEvent(connection: connection, kind: kind, frame: frame, instant: instant))
    }

    /// The notifications `update` makes for this connection, with their frames: `UtxosChanged`
    /// with the entries of its addresses (none when nothing of theirs changed, or without a UTXO
    /// index), then `VirtualDaaScoreChanged`.
    private func notifications(for update: ChainUpdate, subscriptions: ConnectionSubscriptions) async
        -> [(RPCNotification, String)]
    {
        let state = await switches.state
        guard !state.isStalled else { return [] }
        var notifications: [RPCNotification] = []
        if state.hasUtxoIndex, let body = update.utxos.notification(for: await subscriptions.scripts) {
            notifications.append(.utxosChanged(body))
        }
        if await subscriptions.virtualDaaScore {
            notifications.append(
                .virtualDaaScoreChanged(RPCVirtualDaaScoreChanged(virtualDaaScore: update.virtualDaaScore)))
        }
        return notifications.compactMap { notification in
            (try? RPCFrame.notification(notification)).map { (notification, $0) }
        }
    }
}
