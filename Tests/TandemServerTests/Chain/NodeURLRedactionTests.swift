import Foundation
import HummingbirdTesting
import KaspaSimNode
import NIOCore
import TandemAPI
import TandemBasics
import TandemServer
import TestSupport
import Testing

/// Issue 50 item 9: a node URL's secrets (an API token in the user name or the query) never reach
/// `/health` or the relay's receipts (the node's own error texts: `NodeErrorRedactionTests`).
@Suite struct NodeURLRedactionTests {
    @Test func healthAndReceiptsNameTheNodeWithoutItsToken() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve([SimulatedNodeConfiguration()]) { servers in
            var traffic = try await SimulatedKasiaTraffic.funded(on: node, senders: 1)
            let server = try TestServer()
            let secretURL = servers[0].url + "/?token=sekrit123&net=tn10"
            let configuration = ChainIndexHarness.configuration(server.configuration, nodes: [secretURL])
            let message = try traffic.next(sender: 0)
            try await LoopbackServer.run(configuration: configuration, store: server.store) { client in
                try await ChainIndexHarness.waitUntilIndexed(server.store, node: node)
                let shown = servers[0].url + "/?token=***&net=tn10"
                let health = String(buffer: try await client.get(APIPath.health).body ?? ByteBuffer())
                #expect(!health.contains("sekrit123"), "\(health)")
                #expect(try await ChainBridgeTests.health(client)?.node == shown)
                let receipt = try await ChainBridgeTests.submit(client, message)
                #expect(receipt.kaspa == RelayNodeVerdict(accepted: true, node: shown))
            }
        }
    }
}
