import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KaspaCrypto
import KaspaSimNode
import TandemAPI
import TandemBasics
import TandemServer
import TestSupport
import Testing

/// `tandem serve --kaspa-node` against a simulated node (issue 25 "Tests"), on both backends:
/// the server's `/kasia` routes must equal, row for row, the simulated node's own
/// kasia-indexer routes, computed independently from its chain blocks.
extension StoreContractTests {
    static func chainServer(_ directory: TemporaryDirectory, nodes: [String]) -> ServerConfiguration {
        ChainIndexHarness.configuration(
            ServerConfiguration(
                host: "127.0.0.1", port: 0, dataDirectory: directory.url, secret: TestServer.secret,
                rateLimiting: false),
            nodes: nodes)
    }

    @Test(arguments: backends)
    func catchUpLiveBlocksAReorgAndARestartLeaveTheRoutesEqualToTheIndexers(backend: Backend) async throws {
        let node = SimulatedKaspaNode()
        try await node.serve([SimulatedNodeConfiguration()]) { servers in
            // Given a chain with 2,000 transactions of every kind (1,500 of them Kasia rows)
            let driver = try await TrafficDriver(node: node, senders: 20)
            try await driver.send(rounds: 100, roundsPerBlock: 4)
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let indexer = ChainIndexHarness.indexerClient(servers[0])
            defer { Task { try? await indexer.shutdown() } }
            let configuration = Self.chainServer(directory, nodes: [servers[0].url])
            try await Self.withStore(backend) { store in
                try await LoopbackServer.run(configuration: configuration, store: store) { client in
                    // When the server catches up, every route equals the indexer's
                    try await ChainIndexHarness.waitUntilIndexed(store, node: node)
                    let rows = try await ChainIndexHarness.expectRoutesEqual(
                        server: client, indexer: indexer, traffic: await driver.traffic)
                    #expect(rows >= 1_500)
                    let health = try await client.get(APIPath.health)
                    let body = try #require(health.body)
                    let answer = try JSONDecoder().decode(HealthResponse.self, from: Data(body.readableBytesView))
                    #expect(
                        answer.kaspa == HealthKaspa(node: servers[0].url, synced: true, lagBlocks: 0, role: "ingester"))

                    // New blocks are followed live
                    try await driver.send(rounds: 3)
                    try await ChainIndexHarness.waitUntilIndexed(store, node: node)
                    try await ChainIndexHarness.expectRoutesEqual(
                        server: client, indexer: indexer, traffic: await driver.traffic)

                    // A reorg of the last two blocks: their rows leave or move with the new chain
                    try await node.reorg(depth: 2)
                    try await driver.send(rounds: 1)
                    await node.mine(blocks: 2)
                    try await ChainIndexHarness.waitUntilIndexed(store, node: node)
                    try await ChainIndexHarness.expectRoutesEqual(
                        server: client, indexer: indexer, traffic: await driver.traffic)
                }
                // While the server is down the chain moves on; restarted, it resumes from its
                // cursor with no gap and no duplicate.
                try await driver.send(rounds: 5)
                try await LoopbackServer.run(configuration: configuration, store: store) { client in
                    try await ChainIndexHarness.waitUntilIndexed(store, node: node)
                    try await ChainIndexHarness.expectRoutesEqual(
                        server: client, indexer: indexer, traffic: await driver.traffic)
                }
            }
        }
    }
}
