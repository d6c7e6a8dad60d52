import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import KaspaTransaction
import Testing

/// Blocks, acceptance and reorgs (kaspa-node.md §8, §10): one block per DAA step accepting the
/// mempool in arrival order, UtxosChanged as net diffs on acceptance, reorgs undoing blocks.
@Suite struct SimulatedChainBlockTests {
    let alice: TestWallet
    let bob: TestWallet

    init() throws {
        alice = try TestWallet(seed: 0x11)
        bob = try TestWallet(seed: 0x22)
    }

    @Test func mempoolOutputsAreNotUtxosUntilABlockAcceptsThem() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let pay = try alice.pay([funds], [(bob.address, kas), (alice.address, 9 * kas - 203_600)])
        _ = try fixture.chain.submit(pay)
        #expect(fixture.chain.utxos(of: bob.address).isEmpty)
        #expect(fixture.chain.utxos(of: alice.address) == [funds])

        let update = fixture.mine()
        #expect(fixture.chain.mempool.isEmpty)
        #expect(fixture.chain.balance(of: bob.address) == kas)
        #expect(update.virtualDaaScore == funds.blockDAAScore + 1)
        #expect(fixture.chain.utxos(of: bob.address).map(\.blockDAAScore) == [update.virtualDaaScore])
        #expect(fixture.chain.acceptingDaaScore(of: pay.id) == update.virtualDaaScore)
    }

    @Test func anOutputCreatedAndSpentInOneBlockIsInNeitherList() throws {
        // Given a payment and a child spending its change, both waiting
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let pay = try alice.pay([funds], [(bob.address, kas), (alice.address, 9 * kas - 203_600)])
        let child = try alice.pay([alice.output(1, of: pay)], [(alice.address, 9 * kas - 400_000)])
        _ = try fixture.chain.submit(pay)
        _ = try fixture.chain.submit(child)

        // When one block accepts both
        let diff = fixture.mine().utxos

        // Then the change is neither added nor removed
        #expect(diff.removed.map(\.outpoint) == [funds.outpoint])
        #expect(
            diff.added.map(\.outpoint) == [
                KaspaOutpoint(transactionID: pay.id, index: 0), KaspaOutpoint(transactionID: child.id, index: 0),
            ])
        let forAlice = diff.notification(for: [alice.script])
        #expect(forAlice?.removed.map(\.outpoint) == [funds.outpoint])
        #expect(forAlice?.added.map(\.outpoint) == [KaspaOutpoint(transactionID: child.id, index: 0)])
        #expect(forAlice?.added.first?.address == alice.address)
        #expect(diff.notification(for: [bob.script])?.added.map(\.utxoEntry.amount) == [kas])
        let carol = try TestWallet(seed: 0x33)
        #expect(diff.notification(for: [carol.script]) == nil)
    }

    @Test func eachBlockIsOneDaaStepWithItsOwnHash() throws {
        var fixture = ChainFixture()
        let start = fixture.chain.virtualDaaScore
        for _ in 0..<5 { _ = fixture.mine() }
        #expect(fixture.chain.virtualDaaScore == start + 5)
        #expect(fixture.chain.blocks.map(\.daaScore) == Array(start...(start + 5)))
        #expect(Set(fixture.chain.blocks.map(\.hash)).count == 6)
        #expect(fixture.chain.blocks.allSatisfy { $0.hash.count == 32 })
    }

    @Test func aReorgReturnsAcceptedTransactionsToTheMempool() throws {
        // Given a payment accepted in the tip block and a child waiting in the mempool
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let pay = try alice.pay([funds], [(bob.address, kas), (alice.address, 9 * kas - 203_600)])
        _ = try fixture.chain.submit(pay)
        let accepted = fixture.mine()
        let child = try alice.pay([alice.output(1, of: pay)], [(alice.address, 9 * kas - 400_000)])
        _ = try fixture.chain.submit(child)
        let tip = fixture.chain.tip.hash

        // When the tip block is removed
        let undo = try fixture.chain.reorg(depth: 1)

        // Then the payment waits again, ahead of its child; its UTXO changes are undone
        #expect(fixture.chain.mempool.map(\.id) == [pay.id, child.id])
        #expect(undo.utxos == accepted.utxos.reversed)
        #expect(undo.virtualDaaScore == accepted.virtualDaaScore - 1)
        #expect(fixture.chain.utxos(of: alice.address) == [funds])
        #expect(fixture.chain.utxos(of: bob.address).isEmpty)
        #expect(fixture.chain.acceptingDaaScore(of: pay.id) == nil)

        // And mining again accepts both in a block with another hash
        _ = fixture.mine()
        #expect(fixture.chain.tip.hash != tip)
        #expect(fixture.chain.balance(of: bob.address) == kas)
        #expect(fixture.chain.mempool.isEmpty)
    }

    @Test func aReorgDropsFundingAndWhatSpentIt() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let pay = try alice.pay([funds], [(bob.address, 10 * kas - 162_400)])
        _ = try fixture.chain.submit(pay)
        _ = fixture.mine()

        let undo = try fixture.chain.reorg(depth: 2)

        #expect(fixture.chain.mempool.isEmpty)
        #expect(fixture.chain.allUtxos.isEmpty)
        #expect(undo.utxos.added.isEmpty)
        #expect(undo.utxos.removed.map(\.outpoint) == [KaspaOutpoint(transactionID: pay.id, index: 0)])
    }

    @Test func aReorgKeepsGenesis() {
        var fixture = ChainFixture()
        _ = fixture.mine()
        #expect(throws: SimulatedChainError.reorgTooDeep(depth: 2, blocks: 1)) { try fixture.chain.reorg(depth: 2) }
        #expect(throws: SimulatedChainError.reorgTooDeep(depth: 0, blocks: 1)) { try fixture.chain.reorg(depth: 0) }
    }

    @Test func fundingRefusesZero() {
        var fixture = ChainFixture()
        #expect(throws: SimulatedChainError.zeroAmount) { try fixture.fund(alice.address, 0) }
    }

    @Test func diffsNetAcrossSteps() throws {
        let a = KaspaUtxoEntry(
            outpoint: KaspaOutpoint(transactionID: [UInt8](repeating: 1, count: 32), index: 0), amount: 1,
            scriptPublicKey: alice.script)
        let b = KaspaUtxoEntry(
            outpoint: KaspaOutpoint(transactionID: [UInt8](repeating: 2, count: 32), index: 0), amount: 2,
            scriptPublicKey: alice.script)
        let first = UtxoSetDiff(added: [a], removed: [b])
        #expect(first.followed(by: UtxoSetDiff(added: [b], removed: [a])).isEmpty)
        #expect(first.followed(by: first.reversed).isEmpty)
        #expect(first.followed(by: UtxoSetDiff()) == first)
    }
}
