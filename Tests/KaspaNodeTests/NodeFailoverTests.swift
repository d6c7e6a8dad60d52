import Foundation
import KaspaNode
import KaspaRPC
import Testing

@Suite("Node failover, backoff and the connect check (issue 24 item 1)")
struct NodeFailoverTests {
    static let nodes = ["ws://127.0.0.1:1", "ws://127.0.0.1:2", "ws://127.0.0.1:3"].compactMap(URL.init(string:))

    @Test("each failure moves to the next node and waits longer, up to the ceiling; a success resets the wait")
    func movesOnWithBackoff() {
        var failover = NodeFailover(
            endpoints: Self.nodes.map(NodeEndpoint.node),
            backoff: NodeBackoff(initial: .milliseconds(100), maximum: .milliseconds(500)))
        #expect(failover.current == .node(Self.nodes[0]))
        #expect(failover.failed() == .milliseconds(100))
        #expect(failover.current == .node(Self.nodes[1]))
        #expect(!failover.exhaustedRound)
        #expect(failover.failed() == .milliseconds(200))
        #expect(failover.failed() == .milliseconds(400))
        #expect(failover.exhaustedRound)
        #expect(failover.current == .node(Self.nodes[0]))
        #expect(failover.failed() == .milliseconds(500))
        #expect(failover.failed() == .milliseconds(500))
        failover.succeeded()
        #expect(failover.current == .node(Self.nodes[2]))
        #expect(failover.failed() == .milliseconds(100))
    }

    @Test("a node serves only when its network matches, it is synced and, for a wallet, has the UTXO index")
    func connectCheck() {
        let configuration = KaspaNodeConfiguration(endpoints: [], network: .testnet10)
        func info(_ network: KaspaNetworkID = .testnet10, synced: Bool = true, index: Bool = true) -> RPCServerInfo {
            RPCServerInfo(
                serverVersion: "2.0.1", networkId: network, hasUtxoIndex: index, isSynced: synced, virtualDaaScore: 1)
        }
        #expect(configuration.check(info()) == nil)
        #expect(configuration.check(info(.mainnet)) == .wrongNetwork(expected: .testnet10, found: .mainnet))
        #expect(configuration.check(info(KaspaNetworkID("testnet-11") ?? .mainnet)) != nil)
        #expect(configuration.check(info(synced: false)) == .notSynced)
        #expect(configuration.check(info(index: false)) == .noUTXOIndex)
        var indexer = configuration
        indexer.requiresUTXOIndex = false
        #expect(indexer.check(info(index: false)) == nil)
    }

    @Test("the Resolver is asked for a JSON wRPC node of the network, and only ws:// answers are taken")
    func resolver() throws {
        let resolver = try #require(URL(string: "https://resolver.example"))
        #expect(
            KaspaResolver.lookupURL(resolver: resolver, network: .testnet10).absoluteString
                == "https://resolver.example/v2/kaspa/testnet-10/tls/wrpc/json")
        let answer = Data(#"{"uid":"a1","url":"wss://node.example/kaspa/testnet-10/wrpc/json"}"#.utf8)
        #expect(
            try KaspaResolver.nodeURL(fromAnswer: answer).absoluteString
                == "wss://node.example/kaspa/testnet-10/wrpc/json")
        #expect(throws: KaspaNodeError.self) {
            try KaspaResolver.nodeURL(fromAnswer: Data(#"{"uid":"a1","url":"https://x"}"#.utf8))
        }
        #expect(throws: KaspaNodeError.self) { try KaspaResolver.nodeURL(fromAnswer: Data("<html>".utf8)) }
    }
}
