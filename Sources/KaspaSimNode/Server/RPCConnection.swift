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
                        if let answer = await responder.answer(Data(text.utf8)) {
                            try await outbound.write(.text(answer))
                        }
                    }
                }
                group.addTask {
                    for await update in updates {
                        for text in await notifications(for: update, subscriptions: subscriptions) {
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

    /// The notification frames `update` makes for this connection: `UtxosChanged` with the
    /// entries of its addresses (none when nothing of theirs changed, or without a UTXO index),
    /// then `VirtualDaaScoreChanged`.
    private func notifications(for update: ChainUpdate, subscriptions: ConnectionSubscriptions) async -> [String] {
        let state = await switches.state
        guard !state.isStalled else { return [] }
        var frames: [String] = []
        if state.hasUtxoIndex, let body = update.utxos.notification(for: await subscriptions.scripts),
            let frame = try? RPCFrame.notification(.utxosChanged(body))
        {
            frames.append(frame)
        }
        if await subscriptions.virtualDaaScore,
            let frame = try? RPCFrame.notification(
                .virtualDaaScoreChanged(RPCVirtualDaaScoreChanged(virtualDaaScore: update.virtualDaaScore)))
        {
            frames.append(frame)
        }
        return frames
    }
}
