import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import KaspaTransaction
import Testing

/// The submit rules of kaspa-node.md §6 and §7 on the pure chain. What the simulated node leaves
/// out (§10), and so these tests do not cover: P2SH inputs (refused as unverifiable), RBF, the
/// orphan pool (`allowOrphan` is read as false), sequence and lock-time rules, a DAG (one block
/// per DAA step), mempool eviction and priority (a switch makes it "full"), P2P, headers and
/// blocks calls, pruning, and the exact texts of JSON decoding errors.
@Suite struct SimulatedChainAdmissionTests {
    // §7 by hand, no payload, Schnorr inputs (66-byte signature scripts, one sigop each):
    // size(1 in, 2 out) = 2 + 8 + 118 + 8 + 2 × 52 + 76 = 316; compute = 316 + 2 × 36 × 10 + 1000
    // = 2036; floor = max(2036, 632) × 100 = 203,600 sompi.
    static let payFloor: UInt64 = 203_600
    static let payComputeMass: UInt64 = 2036

    let alice: TestWallet
    let bob: TestWallet

    init() throws {
        alice = try TestWallet(seed: 0x11)
        bob = try TestWallet(seed: 0x22)
    }

    private func rejection(
        _ transaction: RPCTransaction, on fixture: inout ChainFixture
    ) -> SubmitRejection.Reason? {
        do {
            _ = try fixture.chain.submit(transaction)
            return nil
        } catch {
            #expect(error.transactionID == transaction.id)
            return error.reason
        }
    }

    @Test func acceptsAtTheFeeFloorWithTheRealTransactionID() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let pay = try alice.pay([funds], [(bob.address, kas), (alice.address, 9 * kas - Self.payFloor)])
        #expect(try fixture.chain.submit(pay) == pay.id)
        #expect(fixture.chain.mempool.map(\.id) == [pay.id])
        #expect(fixture.chain.mempool.first?.fee == Self.payFloor)
        #expect(fixture.chain.mempool.first?.mass.computeMass == Self.payComputeMass)
    }

    @Test func refusesOneSompiUnderTheComputeMassFloor() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let pay = try alice.pay([funds], [(bob.address, kas), (alice.address, 9 * kas - Self.payFloor + 1)])
        #expect(
            rejection(pay, on: &fixture)
                == .feeUnderComputeMass(fee: Self.payFloor - 1, minimum: Self.payFloor, mass: Self.payComputeMass))
    }

    @Test func chargesBytesWhenTwiceTheSizeIsOverTheComputeMass() throws {
        // size(1 in, 1 out, 3,000-byte payload) = 264 + 3000 = 3264; compute = 3264 + 360 + 1000
        // = 4624 < 2 × 3264 = 6528, so the floor is 652,800.
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let payload = [UInt8](repeating: 0x61, count: 3000)
        let under = try alice.pay([funds], [(alice.address, 10 * kas - 652_799)], payload: payload)
        #expect(rejection(under, on: &fixture) == .feeUnderTransientMass(fee: 652_799, minimum: 652_800, mass: 6528))
        let exact = try alice.pay([funds], [(alice.address, 10 * kas - 652_800)], payload: payload)
        #expect(try fixture.chain.submit(exact) == exact.id)
    }

    @Test func refusesWhatIsAlreadyInTheMempoolOrAccepted() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let pay = try alice.pay([funds], [(bob.address, 10 * kas - Self.payFloor)])
        _ = try fixture.chain.submit(pay)
        #expect(rejection(pay, on: &fixture) == .alreadyInMempool)
        _ = fixture.mine()
        #expect(rejection(pay, on: &fixture) == .alreadyAccepted)
    }

    @Test func refusesADoubleSpendNamingTheMempoolSpender() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let first = try alice.pay([funds], [(bob.address, 10 * kas - Self.payFloor)])
        let second = try alice.pay([funds], [(alice.address, 10 * kas - Self.payFloor)])
        _ = try fixture.chain.submit(first)
        #expect(rejection(second, on: &fixture) == .doubleSpend(funds.outpoint, spender: first.id))
    }

    @Test func acceptsChildrenAndGrandchildrenOfMempoolTransactions() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let parent = try alice.pay([funds], [(alice.address, 10 * kas - 200_000)])
        let child = try alice.pay([alice.output(0, of: parent)], [(alice.address, 10 * kas - 400_000)])
        let grandchild = try alice.pay([alice.output(0, of: child)], [(bob.address, 10 * kas - 600_000)])
        for transaction in [parent, child, grandchild] {
            #expect(try fixture.chain.submit(transaction) == transaction.id)
        }
        #expect(fixture.chain.mempool.map(\.id) == [parent.id, child.id, grandchild.id])
    }

    @Test func refusesAnInputFoundNowhereAsAnOrphan() throws {
        var fixture = ChainFixture()
        let ghost = KaspaUtxoEntry(
            outpoint: KaspaOutpoint(transactionID: [UInt8](repeating: 0xab, count: 32), index: 0), amount: kas,
            scriptPublicKey: alice.script)
        #expect(rejection(try alice.pay([ghost], [(bob.address, kas / 2)]), on: &fixture) == .orphan)
    }

    @Test func refusesATamperedSignatureAsAFalseStackEntry() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        var pay = try alice.pay([funds], [(bob.address, 10 * kas - Self.payFloor)])
        pay.inputs[0].signatureScript[10] ^= 1
        #expect(rejection(pay, on: &fixture) == .badSignature)
        #expect(
            SubmitRejection(transactionID: pay.id, reason: .badSignature).reasonText
                == "failed to verify the signature script: false stack entry at end of script execution")
    }

    @Test func refusesASignatureByAnotherKey() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let unsigned = KaspaTransaction(
            inputs: [KaspaTransactionInput(spending: funds)],
            outputs: [KaspaTransactionOutput(value: 10 * kas - Self.payFloor, scriptPublicKey: bob.script)])
        var forged = RPCTransaction(unsigned)
        let bobsSignature = try bob.builder.sign(
            KaspaTransaction(
                inputs: [
                    KaspaTransactionInput(
                        spending: KaspaUtxoEntry(
                            outpoint: funds.outpoint, amount: funds.amount, scriptPublicKey: bob.script))
                ],
                outputs: unsigned.outputs))
        forged.inputs[0].signatureScript = bobsSignature.inputs[0].signatureScript
        #expect(rejection(forged, on: &fixture) == .badSignature)
    }

    @Test func refusesAWrongSigOpCount() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        var pay = try alice.pay([funds], [(bob.address, 9 * kas)])
        pay.inputs[0].sigOpCount = 2
        #expect(rejection(pay, on: &fixture) == .sigOpCount(input: 0, given: 2, calculated: 1))
    }

    @Test func refusesMalformedShapes() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let pay = try alice.pay([funds], [(bob.address, 9 * kas)])

        var noInputs = pay
        noInputs.inputs = []
        #expect(rejection(noInputs, on: &fixture) == .noInputs)

        var duplicate = pay
        duplicate.inputs.append(pay.inputs[0])
        #expect(rejection(duplicate, on: &fixture) == .duplicateInputs)

        var zero = pay
        zero.outputs.append(RPCTransactionOutput(value: 0, scriptPublicKey: bob.script))
        #expect(rejection(zero, on: &fixture) == .zeroValueOutput(1))

        var odd = pay
        odd.outputs.append(RPCTransactionOutput(value: kas, scriptPublicKey: KaspaScriptPublicKey(script: [0x51])))
        #expect(rejection(odd, on: &fixture) == .nonStandardOutputScript(output: 1))
    }

    @Test func refusesSpendingMoreThanTheInputs() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let greedy = try alice.pay([funds], [(bob.address, 11 * kas)])
        #expect(rejection(greedy, on: &fixture) == .spendsMoreThanInputs(outputs: 11 * kas, inputs: 10 * kas))
    }

    @Test func refusesDustOverTheStorageMassLimit() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let dust = try alice.pay([funds], [(bob.address, 100), (alice.address, 9 * kas)])
        let reason = rejection(dust, on: &fixture)
        guard case .storageMassTooLarge(let mass) = reason else {
            Issue.record("expected a storage mass refusal, got \(String(describing: reason))")
            return
        }
        #expect(mass > SimulatedChain.maximumStandardMass)
    }

    @Test func refusesAComputeMassOverTheStandardLimit() throws {
        // Each P2PK output adds 52 bytes and 360 grams: 250 of them pass 100,000.
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 1000 * kas)
        let fanOut = try alice.pay([funds], Array(repeating: (bob.address, kas), count: 250))
        let expected = NodeMass(of: fanOut).computeMass
        #expect(expected > SimulatedChain.maximumStandardMass)
        #expect(rejection(fanOut, on: &fixture) == .computeMassTooLarge(expected))
    }

    @Test func refusesCoinbaseOutputsUntilTheyMature() throws {
        var fixture = ChainFixture()
        let coinbase = try fixture.fund(alice.address, 10 * kas, coinbase: true)
        let pay = try alice.pay([coinbase], [(bob.address, 10 * kas - Self.payFloor)])
        for _ in 0..<999 { _ = fixture.mine() }
        #expect(
            rejection(pay, on: &fixture)
                == .immatureCoinbase(
                    input: 0, coinbase.outpoint, blockDaaScore: coinbase.blockDAAScore,
                    virtualDaaScore: coinbase.blockDAAScore + 999))
        _ = fixture.mine()
        #expect(try fixture.chain.submit(pay) == pay.id)
    }

    @Test func refusesEverythingWhileTheMempoolIsFull() throws {
        var fixture = ChainFixture()
        let funds = try fixture.fund(alice.address, 10 * kas)
        let pay = try alice.pay([funds], [(bob.address, 10 * kas - Self.payFloor)])
        fixture.chain.isMempoolFull = true
        #expect(rejection(pay, on: &fixture) == .mempoolFull)
        fixture.chain.isMempoolFull = false
        #expect(try fixture.chain.submit(pay) == pay.id)
    }
}
