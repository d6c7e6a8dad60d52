import Foundation
import KaspaCrypto
import KaspaNode
import KaspaRPC
import KaspaSimNode
import KaspaTransaction
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

    /// kaspa-node.md §11: a block with a non-standard output fails every chain page holding it
    /// from level Low up, on a real node, for good. The chat's walk reads that page at level None
    /// and skips it after three refusals (``ChainWalk``), so the messages after it still arrive,
    /// and a sync never fails on it again.
    @Test("a chain block with a non-standard output does not stop a chat: its page is skipped, later ones read")
    func aNonStandardOutputIsSkipped() async throws {
        try await KaspaChatTests.withAliceAndBob { network, alice, bob in
            try await alice.startConversation(with: bob.address)
            await network.node.mine()
            #expect(try await bob.sync().map(\.kind) == [.handshake])
            _ = try await alice.sync()
            // Pages of two blocks, the first of them the non-standard one and a filler.
            await network.servers[0].switches.setChainPageLimit(2)
            _ = try await network.node.fund(script: KaspaScriptPublicKey(script: [0x51]), amount: 5)
            _ = try await network.node.fund(bob.address, amount: 7)
            let sent = try await bob.send("after the odd block", to: alice.address)
            #expect(sent.status == .sent)
            await network.node.mine()
            let arrived = try await alice.sync()
            #expect(arrived.filter { $0.kind == .text }.map(\.text) == ["after the odd block"])
            #expect(try await alice.sync().isEmpty, "the skipped page is not read again")
            let starts = await network.servers[0].switches.chainWalkStarts
            #expect(starts.count < 40, "no page was retried without end (\(starts.count) walks)")
        }
    }

    /// kaspa-node.md §11: at level None a real node lists each transaction's inputs and outputs
    /// with every member `null`. The full model cannot read such a page; the walk's skip reads only
    /// its block hashes.
    @Test("a None page has null-member inputs and outputs: only its block hashes are read")
    func aNonePageIsReadForItsHashesOnly() async throws {
        try await SimulatedNetwork.with { network in
            _ = try await network.node.fund(network.address, amount: 5_000)
            let genesis = await network.node.read { $0.genesis.hash }
            let added = await network.node.read { $0.blocks.dropFirst().map(\.hash) }
            let connection = try await KaspaNodeConnection.open(
                network.urls[0], transport: WebSocketClientTransport(), callTimeout: .seconds(30))
            let request = RPCVirtualChainFromBlockRequest(
                startHash: genesis, dataVerbosityLevel: RPCDataVerbosityLevel.none)
            do {
                _ = try await connection.call(
                    .getVirtualChainFromBlockV2, request, as: RPCVirtualChainFromBlockResponse.self)
                Issue.record("a None page read as a High one: its outputs carry values")
            } catch {
                guard case .malformedAnswer? = error as? KaspaNodeError else {
                    Issue.record("\(error)")
                    return
                }
            }
            let hashes = try await connection.call(
                .getVirtualChainFromBlockV2, request, as: RPCVirtualChainHashes.self)
            #expect(hashes.addedChainBlockHashes == added && hashes.removedChainBlockHashes.isEmpty)
            await connection.close()
        }
    }
}
