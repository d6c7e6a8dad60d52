import Foundation
import KaspaSimNode
import KaspaTransaction
import TandemBasics
import Testing

@testable import TandemServer

/// kaspa-node.md §11 (issue 43 item 6): only `cannot find header` sends the chain ingest back to
/// the node's pruning point; any other refusal of a page is retried from the same page.
@Suite struct ChainWalkRefusalTests {
    @Test func onlyAnUnknownHeaderRestartsTheWalkFromThePruningPoint() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve([SimulatedNodeConfiguration()]) { servers in
            let switches = servers[0].switches
            let driver = try await TrafficDriver(node: node, senders: 2)
            try await driver.send(rounds: 4)
            let server = try TestServer()
            let configuration = ChainIndexHarness.configuration(server.configuration, nodes: [servers[0].url])
            let pruningPoint = await node.read { $0.genesis.hash }
            try await LoopbackServer.run(configuration: configuration, store: server.store) { client in
                // Given an index at the node's sink, walked once from the pruning point
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                let first = await switches.chainWalkStarts.count

                // When the next pages are refused for another reason (a real node's conversion
                // failure), then the walk retries from where it stood and catches up
                await switches.refuseNextChainWalks(2, message: "The address is invalid")
                try await driver.send(rounds: 2)
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                let retried = await switches.chainWalkStarts.dropFirst(first)
                #expect(!retried.contains(pruningPoint), "no walk went back to the pruning point")

                // When a page is refused as an unknown header, then the walk starts again from the
                // pruning point, and what it stores again is merged
                let second = await switches.chainWalkStarts.count
                await switches.refuseNextChainWalks(
                    1, message: "cannot find header " + String(repeating: "ab", count: 32))
                try await driver.send(rounds: 2)
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                let restarted = await switches.chainWalkStarts.dropFirst(second)
                #expect(restarted.contains(pruningPoint))
                let indexer = ChainIndexHarness.indexerClient(servers[0])
                try await ChainIndexHarness.expectRoutesEqual(
                    server: client, indexer: indexer, traffic: await driver.traffic)
                try await indexer.shutdown()
            }
        }
    }

    /// A page the node keeps refusing at High (a real node cannot convert a non-standard output
    /// at Low and above, kaspa-node.md §11) is skipped after a few refusals: the index reaches the
    /// sink anyway. The simulated node holds a real such block here, not a forced refusal.
    @Test func aPageWithANonStandardOutputIsSkippedNotRetriedForever() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve([SimulatedNodeConfiguration()]) { servers in
            let driver = try await TrafficDriver(node: node, senders: 2)
            try await driver.send(rounds: 2)
            let server = try TestServer()
            let configuration = ChainIndexHarness.configuration(server.configuration, nodes: [servers[0].url])
            try await LoopbackServer.run(configuration: configuration, store: server.store) { _ in
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                let before = try #require(try await server.store.kasiaChainCursor())
                _ = try await node.fund(script: KaspaScriptPublicKey(script: [0x51]), amount: 5)
                try await driver.send(rounds: 2)
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                let after = try #require(try await server.store.kasiaChainCursor())
                #expect(after.block != before.block, "the cursor moved past the refused page")
                // The score and time stay the last ones known: a header read at None has neither.
                #expect(after.daaScore == before.daaScore)
                // Later traffic is indexed again at level High.
                try await driver.send(rounds: 1)
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                let resumed = try #require(try await server.store.kasiaChainCursor())
                #expect(resumed.daaScore > before.daaScore)
            }
        }
    }

    /// The same with a refusal forced at Low and above (any text): skipped after a few.
    @Test func aPageRefusedAgainAndAgainIsSkippedNotRetriedForever() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve([SimulatedNodeConfiguration()]) { servers in
            let switches = servers[0].switches
            let driver = try await TrafficDriver(node: node, senders: 2)
            try await driver.send(rounds: 2)
            let server = try TestServer()
            let configuration = ChainIndexHarness.configuration(server.configuration, nodes: [servers[0].url])
            try await LoopbackServer.run(configuration: configuration, store: server.store) { _ in
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                let before = try await server.store.kasiaChainCursor()
                // Every walk at Low and above is refused from now on; level None is answered.
                await switches.refuseNextChainWalks(1_000, message: "The address is invalid", atOrAbove: .low)
                try await driver.send(rounds: 2)
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                let after = try #require(try await server.store.kasiaChainCursor())
                #expect(after.block != before?.block, "the cursor moved past the refused page")
                // The score and time stay the last ones known: a header read at None has neither.
                #expect(after.daaScore == before?.daaScore)
                await switches.refuseNextChainWalks(0, message: "")
            }
        }
    }
}
