import Foundation
import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import KaspaTransaction
import TandemBasics
import Testing

/// The chain walk of `getVirtualChainFromBlockV2` (kaspa-node.md §5, §8) computed by the pure
/// chain: added blocks ascending with their accepted transactions, the blocks reorgs removed
/// highest first, each level's nulls, confirmations and paging; then once over a live socket.
@Suite struct VirtualChainWalkTests {
    let alice: TestWallet
    let bob: TestWallet

    init() throws {
        alice = try TestWallet(seed: 0x11)
        bob = try TestWallet(seed: 0x22)
    }

    /// Genesis, a funding block, and a block accepting Alice's message to Bob with its change.
    func chainWithAMessage() throws -> (fixture: ChainFixture, message: RPCTransaction, funds: KaspaUtxoEntry) {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let message = try alice.pay(
            [funds], [(bob.address, kas), (alice.address, 9 * kas - 300_000)], payload: Array("ciph_msg:1:hi".utf8))
        _ = try fixture.chain.submit(message)
        _ = fixture.mine()
        return (fixture, message, funds)
    }

    func walk(
        _ chain: SimulatedChain, from start: [UInt8], _ level: RPCDataVerbosityLevel?,
        minConfirmationCount: UInt64? = nil, limit: Int = SimulatedChain.virtualChainPageSize
    ) throws -> RPCVirtualChainFromBlockResponse {
        try chain.virtualChain(
            RPCVirtualChainFromBlockRequest(
                startHash: start, dataVerbosityLevel: level, minConfirmationCount: minConfirmationCount),
            limit: limit)
    }

    /// kaspa-node.md §11: a real node converts every address of a page from level Low up, and an
    /// output with a non-standard script fails the whole call; at None it is not looked at, and a
    /// page that does not hold the block is answered as usual.
    @Test func aPageHoldingANonStandardOutputFailsFromLevelLowUp() throws {
        var fixture = ChainFixture()
        _ = try fixture.fund(alice.address, kas)
        let id = try fixture.chain.fund(
            script: KaspaScriptPublicKey(script: [0x51]), amount: 5, time: fixture.tick()
        ).transactionID
        _ = try fixture.fund(bob.address, kas)
        let chain = fixture.chain
        let odd = chain.blocks[2]
        #expect(odd.transactions.first?.id == id)
        for level in [RPCDataVerbosityLevel.low, .high, .full, nil] {
            #expect(throws: SimulatedChainError.nonStandardScriptInPage(block: odd.hash)) {
                try walk(chain, from: chain.genesis.hash, level)
            }
        }
        let bare = try walk(chain, from: chain.genesis.hash, RPCDataVerbosityLevel.none)
        #expect(bare.addedChainBlockHashes == chain.blocks.dropFirst().map(\.hash))
        // Pages around it: before it (a limit of one block), and after it.
        #expect(
            try walk(chain, from: chain.genesis.hash, .high, limit: 1).addedChainBlockHashes == [chain.blocks[1].hash])
        #expect(try walk(chain, from: odd.hash, .high).addedChainBlockHashes == [chain.blocks[3].hash])
    }

    @Test func aWalkFromGenesisListsEveryBlockWithItsAcceptedTransactions() throws {
        let (fixture, message, funds) = try chainWithAMessage()
        let chain = fixture.chain
        let answer = try walk(chain, from: chain.genesis.hash, .high)

        #expect(answer.removedChainBlockHashes.isEmpty)
        #expect(answer.addedChainBlockHashes == chain.blocks.dropFirst().map(\.hash))
        #expect(answer.chainBlockAcceptedTransactions.map(\.chainBlockHeader.hash) == answer.addedChainBlockHashes)
        let last = try #require(answer.chainBlockAcceptedTransactions.last)
        #expect(last.chainBlockHeader.daaScore == chain.tip.daaScore)
        #expect(last.chainBlockHeader.blueScore == 2)
        #expect(last.chainBlockHeader.parentsByLevel?.first?.parents == [chain.blocks[1].hash])

        // The message: its id, payload, sender, receivers, and the block that accepted it.
        let accepted = try #require(last.acceptedTransactions.first)
        #expect(last.acceptedTransactions.count == 1)
        #expect(accepted.verboseData?.transactionId == message.id)
        #expect(accepted.payload == Array("ciph_msg:1:hi".utf8))
        let input = try #require(accepted.inputs.first)
        #expect(input.verboseData?.utxoEntry?.verboseData?.scriptPublicKeyAddress == alice.address.description)
        #expect(input.verboseData?.utxoEntry?.amount == 10 * kas)
        #expect(input.previousOutpoint == funds.outpoint)
        #expect(
            accepted.outputs.map(\.verboseData?.scriptPublicKeyAddress)
                == [bob.address.description, alice.address.description])
        #expect(accepted.verboseData?.blockHash == chain.tip.hash)
        #expect(accepted.verboseData?.blockTime == UInt64(chain.tip.time.rawValue))
        #expect(accepted.verboseData?.computeMass == NodeMass(of: message).computeMass)
        // What High reads is enough to rebuild the transaction under its own id.
        #expect(try accepted.kaspaTransaction { _ in nil }.id == message.id)

        // From the tip, nothing has happened since.
        let idle = try walk(chain, from: chain.tip.hash, .high)
        #expect(idle.addedChainBlockHashes.isEmpty && idle.removedChainBlockHashes.isEmpty)
        #expect(idle.chainBlockAcceptedTransactions.isEmpty)
    }

    @Test func aWalkAfterAReorgReportsTheRemovedBlocksHighestFirst() throws {
        // Given G-A-B-C, then a reorg of two blocks and a new block D: G-A-D
        let given = try chainWithAMessage()
        var fixture = given.fixture
        let message = given.message
        _ = fixture.mine()
        let removed = Array(fixture.chain.blocks.suffix(2).map(\.hash))
        _ = try fixture.chain.reorg(depth: 2)
        _ = fixture.mine()
        let chain = fixture.chain

        // When a client walks from the old tip C
        let answer = try walk(chain, from: removed[1], .high)

        // Then C and B are removed (C first), D added, and D accepts the message again
        #expect(answer.removedChainBlockHashes == [removed[1], removed[0]])
        #expect(answer.addedChainBlockHashes == [chain.tip.hash])
        #expect(
            answer.chainBlockAcceptedTransactions.first?.acceptedTransactions.map(\.verboseData?.transactionId)
                == [message.id])
        // From B, only B is removed.
        #expect(try walk(chain, from: removed[0], .none).removedChainBlockHashes == [removed[0]])
    }

    @Test func aWalkFromABlockRemovedTwiceOverClimbsToTheChain() throws {
        // Given G-A-B, B removed and C mined (G-A-C), then A and C removed and D mined (G-D)
        var fixture = ChainFixture()
        _ = try fixture.fund(alice.address, kas)
        _ = fixture.mine()
        let (a, b) = (fixture.chain.blocks[1].hash, fixture.chain.blocks[2].hash)
        _ = try fixture.chain.reorg(depth: 1)
        _ = fixture.mine()
        let c = fixture.chain.tip.hash
        _ = try fixture.chain.reorg(depth: 2)
        _ = fixture.mine()

        // Then a walk from B undoes B and A, and one from C undoes C and A
        let fromB = try walk(fixture.chain, from: b, .none)
        #expect(fromB.removedChainBlockHashes == [b, a])
        #expect(fromB.addedChainBlockHashes == [fixture.chain.tip.hash])
        #expect(try walk(fixture.chain, from: c, .none).removedChainBlockHashes == [c, a])
    }

    @Test func anUnknownStartHashIsRefused() throws {
        let chain = try chainWithAMessage().fixture.chain
        let stranger = [UInt8](repeating: 0xab, count: 32)
        #expect(throws: SimulatedChainError.unknownStartHash(stranger)) {
            try walk(chain, from: stranger, .high)
        }
    }

    @Test(arguments: RPCDataVerbosityLevel.allCases)
    func eachLevelNullsWhatTheSpecSays(level: RPCDataVerbosityLevel) throws {
        let chain = try chainWithAMessage().fixture.chain
        let entry = try #require(try walk(chain, from: chain.genesis.hash, level).chainBlockAcceptedTransactions.last)
        let header = entry.chainBlockHeader
        let transaction = try #require(entry.acceptedTransactions.first)
        let (low, high, full) = (level >= .low, level >= .high, level >= .full)

        #expect(header.hash == chain.tip.hash)
        #expect(
            [header.version != nil, header.timestamp != nil, header.bits != nil, header.nonce != nil] == [
                low, low, low, low,
            ])
        #expect([header.daaScore != nil, header.blueWork != nil, header.blueScore != nil] == [low, low, low])
        #expect(
            [header.parentsByLevel != nil, header.hashMerkleRoot != nil, header.acceptedIdMerkleRoot != nil]
                == [high, high, high])
        #expect([header.utxoCommitment != nil, header.pruningPoint != nil] == [full, full])

        #expect((transaction.verboseData != nil) == low)
        #expect(transaction.inputs.isEmpty == !low && transaction.outputs.isEmpty == !low)
        // kaspa-node.md §11: payload, masses, subnetwork and gas at every level.
        #expect(
            [
                transaction.payload != nil, transaction.mass != nil, transaction.subnetworkId != nil,
                transaction.gas != nil,
            ] == [true, true, true, true])
        #expect((transaction.verboseData?.computeMass != nil) == high)
        #expect([transaction.version != nil, transaction.lockTime != nil] == [full, full])
        guard let input = transaction.inputs.first, let utxo = input.verboseData?.utxoEntry else {
            #expect(!low)
            return
        }
        #expect(!input.signatureScript.isEmpty)
        #expect(utxo.verboseData?.scriptPublicKeyAddress == alice.address.description)
        #expect(
            [input.previousOutpoint != nil, input.sequence != nil, input.sigOpCount != nil, input.computeBudget != nil]
                == [high, high, high, high])
        #expect([utxo.amount != nil, utxo.scriptPublicKey != nil, utxo.isCoinbase != nil] == [high, high, high])
        #expect((utxo.blockDaaScore != nil) == full)
        #expect(transaction.outputs.allSatisfy { $0.verboseData?.scriptPublicKeyAddress.isEmpty == false })
    }

    @Test func aMissingLevelMeansFull() throws {
        let chain = try chainWithAMessage().fixture.chain
        #expect(try walk(chain, from: chain.genesis.hash, nil) == (try walk(chain, from: chain.genesis.hash, .full)))
    }

    @Test func moreBlocksThanAPageComeInPagesFromTheLastAddedHash() throws {
        // Given seven blocks above genesis and pages of three
        var fixture = ChainFixture()
        for _ in 0..<7 { _ = fixture.mine() }
        let chain = fixture.chain

        // When a client walks page by page from genesis
        var cursor = chain.genesis.hash
        var pages: [[[UInt8]]] = []
        while true {
            let page = try walk(chain, from: cursor, .none, limit: 3).addedChainBlockHashes
            guard let last = page.last else { break }
            pages.append(page)
            cursor = last
        }

        // Then it reads 3 + 3 + 1 blocks, every block once, in order
        #expect(pages.map(\.count) == [3, 3, 1])
        #expect(pages.flatMap { $0 } == chain.blocks.dropFirst().map(\.hash))
    }

    @Test(arguments: [(UInt64?.none, 4), (0, 3), (1, 2), (3, 0), (10, 0)])
    func minConfirmationCountLeavesOutTheYoungestBlocks(count: UInt64?, kept: Int) throws {
        var fixture = ChainFixture()
        for _ in 0..<4 { _ = fixture.mine() }
        let added = try walk(fixture.chain, from: fixture.chain.genesis.hash, .none, minConfirmationCount: count)
        #expect(added.addedChainBlockHashes == Array(fixture.chain.blocks.dropFirst().prefix(kept).map(\.hash)))
        #expect(added.chainBlockAcceptedTransactions.count == kept)
    }

    @Test func theNodeAnswersTheWalkOverItsSocket() async throws {
        // Given a node with a funded address
        let node = SimulatedKaspaNode()
        try await node.fund(alice.address, amount: kas)
        let (genesis, tip) = await node.read { ($0.genesis.hash, $0.tip.hash) }
        let receiver = alice.address.description
        try await node.serve(logger: LoopbackTests.logger) { servers in
            try await LoopbackTests.session(servers[0].url) { reader, writer in
                // When a client asks from genesis, then from a block the node never made
                let request = RPCVirtualChainFromBlockRequest(startHash: genesis, dataVerbosityLevel: .high)
                try await writer.write(
                    .text(try RPCFrame.request(id: 1, method: .getVirtualChainFromBlockV2, params: request)))
                let answer = try await reader.next() ?? ""
                let stranger = RPCVirtualChainFromBlockRequest(
                    startHash: [UInt8](repeating: 0xab, count: 32), dataVerbosityLevel: .high)
                try await writer.write(
                    .text(try RPCFrame.request(id: 2, method: .getVirtualChainFromBlockV2, params: stranger)))
                let refusal = try await reader.next() ?? ""
                try await writer.close(.normalClosure, reason: nil)

                // Then the first is the walk, the second an error frame naming the hash
                let walked = try RPCFrame.params(RPCVirtualChainFromBlockResponse.self, from: Data(answer.utf8))
                #expect(walked.addedChainBlockHashes == [tip])
                #expect(
                    walked.chainBlockAcceptedTransactions.first?.acceptedTransactions.first?.outputs.first?.verboseData?
                        .scriptPublicKeyAddress == receiver)
                guard
                    case .error(2, "getVirtualChainFromBlockV2", let message) = try RPCFrame.inbound(Data(refusal.utf8))
                else {
                    Issue.record("not an error frame: \(refusal)")
                    return
                }
                #expect(message == "cannot find header " + String(repeating: "ab", count: 32))
            }
        }
    }
}
