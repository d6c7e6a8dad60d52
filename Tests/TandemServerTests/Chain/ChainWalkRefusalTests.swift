import Foundation
import HummingbirdTesting
import KaspaSimNode
import KaspaTransaction
import TandemBasics
import TandemServerStore
import Testing

@testable import TandemServer

/// kaspa-node.md §11 (issue 43 item 6): only `cannot find header` sends the chain ingest back to
/// the node's pruning point; any other refusal of a page is retried from the same page.
@Suite struct ChainWalkRefusalTests {
    /// A node with traffic and a server indexing it, caught up to the node's sink.
    struct Indexed: Sendable {
        let node: SimulatedKaspaNode
        let port: RunningNodeServer
        let driver: TrafficDriver
        let server: TestServer
        let client: TestClient

        var switches: NodeSwitches { port.switches }

        func waitUntilIndexed() async throws { try await ChainIndexHarness.waitUntilIndexed(server.store, node: node) }
        func cursor() async throws -> KasiaChainCursor? { try await server.store.kasiaChainCursor() }
    }

    /// Runs `body` on a node with `rounds` of traffic from two senders and a server indexing it.
    static func withIndexedServer(rounds: Int, _ body: @Sendable (Indexed) async throws -> Void) async throws {
        let node = SimulatedKaspaNode()
        try await node.serve([SimulatedNodeConfiguration()]) { servers in
            let driver = try await TrafficDriver(node: node, senders: 2)
            try await driver.send(rounds: rounds)
            let server = try TestServer()
            let configuration = ChainIndexHarness.configuration(server.configuration, nodes: [servers[0].url])
            try await LoopbackServer.run(configuration: configuration, store: server.store) { client in
                let indexed = Indexed(node: node, port: servers[0], driver: driver, server: server, client: client)
                try await indexed.waitUntilIndexed()
                try await body(indexed)
            }
        }
    }

    @Test func onlyAnUnknownHeaderRestartsTheWalkFromThePruningPoint() async throws {
        try await Self.withIndexedServer(rounds: 4) { indexed in
            // Given an index at the node's sink, walked once from the pruning point
            let switches = indexed.switches
            let pruningPoint = await indexed.node.read { $0.genesis.hash }
            let first = await switches.chainWalkStarts.count

            // When the next pages are refused for another reason (a real node's conversion
            // failure), then the walk retries from where it stood and catches up
            await switches.refuseNextChainWalks(2, message: "The address is invalid")
            try await indexed.driver.send(rounds: 2)
            try await indexed.waitUntilIndexed()
            let retried = await switches.chainWalkStarts.dropFirst(first)
            #expect(!retried.contains(pruningPoint), "no walk went back to the pruning point")

            // When a page is refused as an unknown header, then the walk starts again from the
            // pruning point, and what it stores again is merged
            let second = await switches.chainWalkStarts.count
            await switches.refuseNextChainWalks(1, message: "cannot find header " + String(repeating: "ab", count: 32))
            try await indexed.driver.send(rounds: 2)
            try await indexed.waitUntilIndexed()
            let restarted = await switches.chainWalkStarts.dropFirst(second)
            #expect(restarted.contains(pruningPoint))
            let indexer = ChainIndexHarness.indexerClient(indexed.port)
            try await ChainIndexHarness.expectRoutesEqual(
                server: indexed.client, indexer: indexer, traffic: await indexed.driver.traffic)
            try await indexer.shutdown()
        }
    }

    /// A page the node keeps refusing at High (a real node cannot convert a non-standard output
    /// at Low and above, kaspa-node.md §11) is skipped after a few refusals: the index reaches the
    /// sink anyway. The simulated node holds a real such block here, not a forced refusal.
    @Test func aPageWithANonStandardOutputIsSkippedNotRetriedForever() async throws {
        try await Self.withIndexedServer(rounds: 2) { indexed in
            let before = try #require(try await indexed.cursor())
            _ = try await indexed.node.fund(script: KaspaScriptPublicKey(script: [0x51]), amount: 5)
            try await indexed.driver.send(rounds: 2)
            try await indexed.waitUntilIndexed()
            let after = try #require(try await indexed.cursor())
            #expect(after.block != before.block, "the cursor moved past the refused page")
            // The score and time stay the last ones known: a header read at None has neither.
            #expect(after.daaScore == before.daaScore)
            // Later traffic is indexed again at level High.
            try await indexed.driver.send(rounds: 1)
            try await indexed.waitUntilIndexed()
            let resumed = try #require(try await indexed.cursor())
            #expect(resumed.daaScore > before.daaScore)
        }
    }

    /// The same with a refusal forced at Low and above (any text): skipped after a few.
    @Test func aPageRefusedAgainAndAgainIsSkippedNotRetriedForever() async throws {
        try await Self.withIndexedServer(rounds: 2) { indexed in
            let before = try await indexed.cursor()
            // Every walk at Low and above is refused from now on; level None is answered.
            await indexed.switches.refuseNextChainWalks(1_000, message: "The address is invalid", atOrAbove: .low)
            try await indexed.driver.send(rounds: 2)
            try await indexed.waitUntilIndexed()
            let after = try #require(try await indexed.cursor())
            #expect(after.block != before?.block, "the cursor moved past the refused page")
            // The score and time stay the last ones known: a header read at None has neither.
            #expect(after.daaScore == before?.daaScore)
            await indexed.switches.refuseNextChainWalks(0, message: "")
        }
    }
}
