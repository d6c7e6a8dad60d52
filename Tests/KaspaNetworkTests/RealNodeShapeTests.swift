import Foundation
import KaspaCrypto
import KaspaNode
import KaspaRPC
import KaspaSimNode
import TandemNIOTransport
import Testing

/// The client against the shapes of a real node that the simulated node now answers by default
/// (kaspa-node.md §11, issue 43 item 6).
@Suite("What a real node does (issue 43)")
struct RealNodeShapeTests {
    @Test("a node that falls into IBD refuses the UTXO calls: the client fails over, not giving up")
    func anIBDRefusalFailsOver() async throws {
        try await SimulatedNetwork.with(ports: 2) { network in
            let client = network.client()
            #expect(try await client.connect().node == network.urls[0])
            // The node in use starts an IBD after the connect check passed it.
            await network.servers[0].switches.setSynced(false)
            let balance = try await client.call(
                .getBalanceByAddress, RPCAddress(address: network.address), as: RPCBalance.self)
            #expect(balance.balance == 0)
            #expect(await client.node == network.urls[1], "the call went to the synced node")
            let refusal = KaspaNodeError.refused(
                node: "n", method: "getUtxosByAddresses", message: "consensus is currently in a transitional ibd state")
            #expect(refusal.isInitialBlockDownload && refusal.isTransportFailure)
            #expect(!KaspaNodeError.refused(node: "n", method: "m", message: "other").isTransportFailure)
        }
    }

    @Test("a node in IBD refuses its UTXO reads and the chain walk")
    func ibdRefusesReads() async throws {
        try await SimulatedNetwork.with(ports: 1) { network in
            let client = network.client()
            _ = try await client.connect()
            await network.servers[0].switches.setSynced(false)
            let connection = try await KaspaNodeConnection.open(
                network.urls[0], transport: WebSocketClientTransport(), callTimeout: .seconds(30))
            do {
                _ = try await connection.call(
                    .getUtxosByAddresses, RPCAddresses(addresses: [network.address]), as: RPCUtxosByAddresses.self)
                Issue.record("an unsynced node answered getUtxosByAddresses")
            } catch {
                #expect((error as? KaspaNodeError)?.isInitialBlockDownload == true, "\(error)")
            }
            do {
                _ = try await connection.call(
                    .getVirtualChainFromBlockV2,
                    RPCVirtualChainFromBlockRequest(
                        startHash: [UInt8](repeating: 0, count: 32), dataVerbosityLevel: .high),
                    as: RPCVirtualChainFromBlockResponse.self)
                Issue.record("an unsynced node answered the chain walk")
            } catch {
                #expect((error as? KaspaNodeError)?.isInitialBlockDownload == true, "\(error)")
            }
            await connection.close()
        }
    }

    @Test("unsubscribe answers {}, and the client reads it")
    func unwatchReadsAnEmptyAnswer() async throws {
        try await SimulatedNetwork.with(ports: 1) { network in
            let client = network.client()
            _ = try await client.connect()
            try await client.watch([network.address])
            try await client.unwatch([network.address])
            #expect(await client.watched.isEmpty)
        }
    }

    @Test("only cannot find header is an unknown start hash")
    func unknownStartHash() {
        #expect(KaspaNodeError.refused(node: "n", method: "m", message: "cannot find header ab").isUnknownStartHash)
        #expect(!KaspaNodeError.refused(node: "n", method: "m", message: "The address is invalid").isUnknownStartHash)
        #expect(!KaspaNodeError.timeout(node: "n", method: "m", seconds: 1).isUnknownStartHash)
    }
}
