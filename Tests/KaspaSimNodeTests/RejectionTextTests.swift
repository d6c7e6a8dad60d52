import KaspaSimNode
import KaspaTransaction
import Testing

/// Each refusal reads exactly as kaspa-node.md §6 words it, behind `Rejected transaction <txid>: `.
@Suite struct RejectionTextTests {
    static let id = [UInt8](repeating: 0xaa, count: 32)
    static let idHex = String(repeating: "aa", count: 32)
    static let other = [UInt8](repeating: 0xbb, count: 32)
    static let otherHex = String(repeating: "bb", count: 32)

    static let table: [(SubmitRejection.Reason, String)] = [
        (.alreadyInMempool, "transaction \(idHex) is already in the mempool"),
        (.alreadyAccepted, "transaction \(idHex) was already accepted by the consensus"),
        (
            .doubleSpend(KaspaOutpoint(transactionID: other, index: 3), spender: other),
            "output (\(otherHex), 3) already spent by transaction \(otherHex) in the mempool"
        ),
        (.orphan, "transaction \(idHex) is an orphan where orphan is disallowed"),
        (
            .feeUnderComputeMass(fee: 99, minimum: 203_600, mass: 2036),
            "transaction \(idHex) is not standard: transaction has 99 fees which is under the required amount of "
                + "203600 for compute mass 2036"
        ),
        (
            .feeUnderTransientMass(fee: 5, minimum: 652_800, mass: 6528),
            "transaction \(idHex) is not standard: transaction has 5 fees which is under the required amount of "
                + "652800 for normalized transient mass 6528 (proportional to transaction byte size)"
        ),
        (
            .computeMassTooLarge(100_001),
            "transaction \(idHex) is not standard: transaction compute mass of 100001 is larger than max allowed "
                + "size of 100000"
        ),
        (
            .transientMassTooLarge(100_004),
            "transaction \(idHex) is not standard: transaction transient (storage) mass of 100004 is larger than "
                + "max allowed size of 100000"
        ),
        (
            .storageMassTooLarge(10_000_000_000),
            "transaction \(idHex) is not standard: transaction storage mass of 10000000000 is larger than max "
                + "allowed size of 100000"
        ),
        (
            .nonStandardOutputScript(output: 1),
            "transaction \(idHex) is not standard: transaction output #1: non-standard script form"
        ),
        (
            .spendsMoreThanInputs(outputs: 11, inputs: 10),
            "transaction tries to spend 11 while its total inputs amount is 10"
        ),
        (.badSignature, "failed to verify the signature script: false stack entry at end of script execution"),
        (.sigOpCount(input: 0, given: 2, calculated: 1), "input 0 sig op count is 2, but the calculated value is 1"),
        (.zeroValueOutput(2), "transaction output 2 has zero value"),
        (.noInputs, "transaction has no inputs"),
        (.duplicateInputs, "transaction has duplicate inputs"),
        (
            .mempoolFull,
            "transaction could not be added to the mempool because it's full with transactions with higher priority"
        ),
    ]

    @Test(arguments: table)
    func readsAsTheNodeWordsIt(reason: SubmitRejection.Reason, text: String) {
        let rejection = SubmitRejection(transactionID: Self.id, reason: reason)
        #expect(rejection.reasonText == text)
        #expect(rejection.message == "Rejected transaction \(Self.idHex): \(text)")
    }

    @Test func immatureCoinbaseStartsWithTheSpecPrefix() {
        let rejection = SubmitRejection(
            transactionID: Self.id,
            reason: .immatureCoinbase(
                input: 0, KaspaOutpoint(transactionID: Self.other, index: 0), blockDaaScore: 10, virtualDaaScore: 20))
        #expect(rejection.reasonText.hasPrefix("one of the transaction inputs spends an immature UTXO: "))
    }
}
