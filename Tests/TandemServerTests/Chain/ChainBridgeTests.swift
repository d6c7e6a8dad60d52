import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KaspaCrypto
import KaspaSimNode
import KaspaTransaction
import NIOCore
import TandemAPI
import TandemBasics
import TandemServer
import TandemServerStore
import TestSupport
import Testing

/// The bridge of relayed Kaspa transactions to the node (issue 25 item 5) and the choice of
/// node (item 3), on SQLite.
@Suite struct ChainBridgeTests {
    static func submit(_ client: TestClient, _ transaction: KaspaTransaction) async throws -> RelayReceipt {
        let body = String(
            decoding: try JSONEncoder().encode(
                RelayKaspaSubmission(transaction: try RelayKaspaTransaction(converting: transaction))), as: UTF8.self)
        let answer = try await LoopbackServer.post(client, APIPath.kasiaTransactions, json: body)
        #expect(answer.head.status == .ok)
        return try JSONDecoder().decode(RelayReceipt.self, from: Data(try #require(answer.body).readableBytesView))
    }

    @Test func aRelayedKaspaTransactionReachesTheNodeAndItsRowIsAcceptedWhenABlockTakesIt() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve([SimulatedNodeConfiguration()]) { servers in
            var traffic = try await SimulatedKasiaTraffic.funded(on: node, senders: 2)
            let server = try TestServer()
            let configuration = ChainIndexHarness.configuration(server.configuration, nodes: [servers[0].url])
            let message = try traffic.next(sender: 0)
            let refusedOne = try traffic.next(sender: 1)
            try await LoopbackServer.run(configuration: configuration, store: server.store) { client in
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                // Given a contextual message relayed as a signed Kaspa transaction
                let receipt = try await Self.submit(client, message)
                // Then the relay stores it and the node accepts it into its mempool
                #expect(receipt.txID == Hex.encode(message.id))
                #expect(receipt.kaspa == RelayNodeVerdict(accepted: true, node: servers[0].url))
                let inMempool = await node.read { $0.mempoolTransaction(message.id) != nil }
                #expect(inMempool)
                // The same transaction relayed again: the node already has it, which is an acceptance
                let again = try await Self.submit(client, message)
                #expect(again.txID == receipt.txID)
                #expect(again.kaspa == RelayNodeVerdict(accepted: true, node: servers[0].url))
                // A node refusal comes back verbatim, and the relay still stores the row
                await servers[0].switches.rejectNextSubmits(1, message: "transaction rejected: fee too low")
                let refused = try await Self.submit(client, refusedOne)
                #expect(refused.kaspa == RelayNodeVerdict(accepted: false, reason: "transaction rejected: fee too low"))
                #expect(try await server.store.kasiaRecord(txID: refused.txID) != nil)
                // When a block accepts the message, its row carries the block
                await node.mine()
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                let row = try #require(try await server.store.kasiaRecord(txID: receipt.txID))
                let tip = await node.read { $0.tip }
                #expect(row.acceptance == KasiaAcceptance(block: Hex.encode(tip.hash), daaScore: tip.daaScore))
                #expect(row.blockTime == UnixMillis(tip.time.rawValue))
            }
        }
    }

    @Test func anUnsyncedNodeIsPassedOverAndHealthNamesTheOneInUse() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve([SimulatedNodeConfiguration(), SimulatedNodeConfiguration()]) { servers in
            await servers[0].switches.setSynced(false)
            let driver = try await TrafficDriver(node: node, senders: 3)
            try await driver.send(rounds: 8)
            let server = try TestServer()
            var configuration = ChainIndexHarness.configuration(
                server.configuration, nodes: servers.map(\.url))
            configuration.metrics = true
            try await LoopbackServer.run(configuration: configuration, store: server.store) { client in
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                // The Prometheus metrics say the same as /health.
                try await ChainIndexHarness.waitUntil("the metrics report a synced ingester") {
                    let text = String(buffer: try await client.get(APIPath.metrics).body ?? ByteBuffer())
                    return text.contains("tandem_kasia_chain_ingesting 1")
                        && text.contains("tandem_kasia_chain_synced 1")
                        && text.contains("tandem_kasia_chain_lag_blocks 0")
                }
                let answer = try await client.get(APIPath.health)
                let health = try JSONDecoder().decode(
                    HealthResponse.self, from: Data(try #require(answer.body).readableBytesView))
                #expect(health.kaspa?.node == servers[1].url)
                #expect(health.kaspa?.role == "ingester")
                let indexer = ChainIndexHarness.indexerClient(servers[1])
                try await ChainIndexHarness.expectRoutesEqual(
                    server: client, indexer: indexer, traffic: await driver.traffic)
                try await indexer.shutdown()
            }
        }
    }
}

extension ChainBridgeTests {
    static func health(_ client: TestClient) async throws -> HealthKaspa? {
        let answer = try await client.get(APIPath.health)
        return try JSONDecoder().decode(HealthResponse.self, from: Data(try #require(answer.body).readableBytesView))
            .kaspa
    }

    /// Item 3: the node in use goes away and the next one is behind the index. Nothing is stored
    /// from it, the index keeps serving and says it is not synced, and when the first node is
    /// back the index goes on from its cursor.
    @Test func aNodeBehindTheIndexIsPassedOverAndTheAPIKeepsServing() async throws {
        let ahead = SimulatedKaspaNode()
        let behind = SimulatedKaspaNode()
        try await ahead.serve([SimulatedNodeConfiguration()]) { aheadServers in
            try await behind.serve([SimulatedNodeConfiguration()]) { behindServers in
                let driver = try await TrafficDriver(node: ahead, senders: 3)
                try await driver.send(rounds: 10)
                await behind.mine(blocks: 2)
                let server = try TestServer()
                let configuration = ChainIndexHarness.configuration(
                    server.configuration, nodes: [aheadServers[0].url, behindServers[0].url])
                try await LoopbackServer.run(configuration: configuration, store: server.store) { client in
                    try await ChainIndexHarness.waitUntilIndexed(server.store, node: ahead)
                    let cursor = try await server.store.kasiaChainCursor()
                    // When the node in use refuses connections and the other is behind
                    await aheadServers[0].switches.setRefusingConnections(true)
                    await aheadServers[0].switches.dropConnections()
                    try await ChainIndexHarness.waitUntil("the index reports it is not synced") {
                        try await Self.health(client)?.synced == false
                    }
                    // Then nothing moves, and the routes still answer
                    #expect(try await server.store.kasiaChainCursor() == cursor)
                    let indexer = ChainIndexHarness.indexerClient(aheadServers[0])
                    try await ChainIndexHarness.expectRoutesEqual(
                        server: client, indexer: indexer, traffic: await driver.traffic)
                    // And once the first node is back, the index follows it again
                    await aheadServers[0].switches.setRefusingConnections(false)
                    try await driver.send(rounds: 2)
                    try await ChainIndexHarness.waitUntilIndexed(server.store, node: ahead)
                    try await ChainIndexHarness.expectRoutesEqual(
                        server: client, indexer: indexer, traffic: await driver.traffic)
                    let health = try await Self.health(client)
                    #expect(health?.node == aheadServers[0].url)
                    try await indexer.shutdown()
                }
            }
        }
    }
}

extension ChainBridgeTests {
    /// A database whose cursor belongs to another network is left alone: the server says why
    /// and indexes nothing from this node.
    @Test func anIndexOfAnotherNetworkIsNotContinued() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve([SimulatedNodeConfiguration()]) { servers in
            let driver = try await TrafficDriver(node: node, senders: 2)
            try await driver.send(rounds: 4)
            let server = try TestServer()
            let mainnet = KasiaChainCursor(
                block: String(repeating: "ab", count: 32), daaScore: 5, blockTime: UnixMillis(1), network: "mainnet")
            _ = try await server.store.applyKasiaChainPage(
                KasiaChainPage(from: nil, removedBlocks: [], rows: [], to: mainnet), now: UnixMillis(1))
            let configuration = ChainIndexHarness.configuration(server.configuration, nodes: [servers[0].url])
            try await LoopbackServer.run(configuration: configuration, store: server.store) { client in
                try await ChainIndexHarness.waitUntil("the server says the database is another network's") {
                    try await Self.health(client)?.error?.contains("indexes mainnet, not testnet-10") == true
                }
                #expect(try await Self.health(client)?.synced == false)
                #expect(try await server.store.kasiaChainCursor() == mainnet)
                #expect(try await server.store.latestKasiaPosition() == nil)
            }
        }
    }
}
