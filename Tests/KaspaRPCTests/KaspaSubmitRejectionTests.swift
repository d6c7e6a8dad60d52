import KaspaRPC
import Testing

/// Every submit refusal text of kaspa-node.md §6 lands in the kind the wallet acts on.
@Suite("Submit rejections by kind (issue 24 item 2)")
struct KaspaSubmitRejectionTests {
    static let id = String(repeating: "ab", count: 32)

    @Test(
        "each node text is read as its kind",
        arguments: [
            ("transaction \(id) is already in the mempool", KaspaSubmitRejection.alreadyKnown),
            ("transaction \(id) was already accepted by the consensus", .alreadyKnown),
            ("output (\(id), 0) already spent by transaction \(id) in the mempool", .staleInputs),
            ("transaction \(id) is an orphan where orphan is disallowed", .staleInputs),
            ("at least one outpoint of the transaction is lacking a matching UTXO entry", .staleInputs),
            (
                "transaction \(id) is not standard: transaction has 2000 fees which is under the required amount of 216600 for compute mass 2166",
                .feeTooLow(required: 216_600)
            ),
            (
                "transaction \(id) is not standard: transaction has 1 fees which is under the required amount of 99 for normalized transient mass 3 (proportional to transaction byte size)",
                .feeTooLow(required: 99)
            ),
            (
                "transaction could not be added to the mempool because it's full with transactions with higher priority",
                .mempoolFull
            ),
            ("consensus is currently in a transitional ibd state", .nodeSyncing),
            ("failed to verify the signature script: false stack entry at end of script execution", .other),
            ("transaction \(id) is not standard: transaction output #0: non-standard script form", .other),
            ("one of the transaction inputs spends an immature UTXO: x", .other),
        ])
    func classifies(text: String, kind: KaspaSubmitRejection) {
        #expect(KaspaSubmitRejection(message: "Rejected transaction \(Self.id): " + text) == kind)
    }
}
