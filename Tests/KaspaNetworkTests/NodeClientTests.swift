import Foundation
import KaspaCrypto
import KaspaNode
import KaspaRPC
import KaspaSimNode
import TandemNIOTransport
import Testing

/// The node client against the simulated node over real loopback WebSockets (issue 24 item 1):
/// the connect check, failover, and re-subscription after a lost connection.
@Suite("Node client over the simulated node (issue 24)")
struct NodeClientTests {
    @Test("a node on another network, unsynced or without the UTXO index is passed over, with its reason")
    func connectCheck() async throws {
        try await SimulatedNetwork.with(ports: 3) { network in
            await network.servers[0].switches.setReportedNetwork(.mainnet)
            await network.servers[1].switches.setSynced(false)
            await network.servers[2].switches.setUtxoIndex(false)
            let client = network.client()
            do {
                try await client.connect()
                Issue.record("a node was taken")
            } catch {
                guard case .noUsableNode(let attempts)? = error as? KaspaNodeError else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(
                    attempts.map(\.reason) == [
                        "it is on mainnet, not testnet-10", "it is not synced", "it runs without --utxoindex",
                    ])
                #expect(attempts.map(\.node) == network.urls.map(\.absoluteString))
            }
            await network.servers[2].switches.setUtxoIndex(true)
            let snapshot = try await client.connect()
            #expect(snapshot.node == network.urls[2])
            #expect(snapshot.info.networkId == .testnet10)
        }
    }

    @Test("a refused connection moves to the next node; a stalled node times out and the call moves on")
    func failover() async throws {
        try await SimulatedNetwork.with(ports: 2) { network in
            await network.servers[0].switches.setRefusingConnections(true)
            // The connect check keeps the default timeout: under a loaded CI a short one can pass
            // over the good node too (it did, once, at 500 ms).
            let client = network.client()
            #expect(try await client.connect().node == network.urls[1])
            // The second stalls: the next call times out there and is answered by the first.
            await network.servers[0].switches.setRefusingConnections(false)
            await network.servers[1].switches.setStalled(true)
            let balance = try await client.call(
                .getBalanceByAddress, RPCAddress(address: network.address), as: RPCBalance.self,
                timeout: .seconds(2))
            #expect(balance.balance == 0)
            #expect(await client.node == network.urls[0])
        }
    }

    @Test("after a dropped connection the client reconnects, subscribes again and misses nothing")
    func resubscribesAfterDrop() async throws {
        try await SimulatedNetwork.with(ports: 2) { network in
            let client = network.client()
            try await client.watch([network.address])
            try await whileRunning(client) {
                var events = client.events.makeAsyncIterator()
                guard case .connected(let first, _)? = await events.next() else {
                    Issue.record("no connect event")
                    return
                }
                try await network.node.fund(network.address, amount: 100_000_000)
                guard case .utxosChanged(let change)? = await events.next() else {
                    Issue.record("no UtxosChanged")
                    return
                }
                #expect(change.added.map(\.utxoEntry.amount) == [100_000_000])

                // When: the node the client uses drops every connection.
                let index = network.urls.firstIndex(of: first) ?? 0
                await network.servers[index].switches.dropConnections()
                // Then: it is announced, replaced, and the subscription works on the new node.
                var sawDisconnect = false
                var reconnected: URL?
                while reconnected == nil, let event = await events.next() {
                    switch event {
                    case .disconnected: sawDisconnect = true
                    case .connected(let node, _): reconnected = node
                    default: break
                    }
                }
                #expect(sawDisconnect)
                #expect(reconnected != nil)
                try await network.node.fund(network.address, amount: 200_000_000)
                while let event = await events.next() {
                    if case .utxosChanged(let change) = event {
                        #expect(change.added.map(\.utxoEntry.amount) == [200_000_000])
                        break
                    }
                }
            }
        }
    }
}

extension NodeClientTests {
    @Test(
        "a consumer behind a flood of notifications reads a resync and the newest events, never all of them (issue 50 item 2)"
    )
    func floodResyncs() async throws {
        try await SimulatedNetwork.with(ports: 1) { network in
            var configuration = network.configuration()
            configuration.eventCapacity = 4
            let client = KaspaNodeClient(configuration: configuration, transport: WebSocketClientTransport())
            try await client.followDaaScore()
            try await whileRunning(client) {
                var events = client.events.makeAsyncIterator()
                guard case .connected? = await events.next() else {
                    Issue.record("no connect event")
                    return
                }
                // 40 ticks (ten times what the events keep, fewer than the transport's cap) while
                // nobody reads the events, until the client has taken in the last one (the node
                // writes notifications apart from answers, so no call can order them).
                let last = await network.node.mine(blocks: 40)
                let clock = ContinuousClock()
                let giveUp = clock.now.advanced(by: .seconds(60))
                while await client.serverInfo?.virtualDaaScore != last, clock.now < giveUp {
                    try await Task.sleep(for: .milliseconds(5))
                }
                #expect(await client.serverInfo?.virtualDaaScore == last)
                var read = 0
                var resynced = false
                while let event = await events.next() {
                    read += 1
                    if case .resync = event { resynced = true }
                    if case .virtualDaaScoreChanged(let score) = event, score == last { break }
                    if case .disconnected(_, let reason) = event {
                        Issue.record("the connection dropped: \(reason)")
                        break
                    }
                }
                #expect(resynced)
                // What waits is bounded by the two queues (4 each), not by what the node sent.
                #expect(read <= 12)
            }
        }
    }
}

/// Runs `body` while `client` keeps its connection (``KaspaNodeClient/run()``), then stops it.
func whileRunning<T: Sendable>(_ client: KaspaNodeClient, _ body: () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { await client.run() }
        defer { group.cancelAll() }
        return try await body()
    }
}
