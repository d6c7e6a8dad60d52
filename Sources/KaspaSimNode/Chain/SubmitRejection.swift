public import KaspaTransaction
import TandemBasics

/// Why the simulated node refused a `submitTransaction`, worded as rusty-kaspa v2 words it
/// (kaspa-node.md §6). ``message`` is the whole text a node answers:
/// `Rejected transaction <txid>: <reason>`.
public struct SubmitRejection: Error, Hashable, Sendable, CustomStringConvertible {
    public var transactionID: [UInt8]
    public var reason: Reason

    public init(transactionID: [UInt8], reason: Reason) {
        self.transactionID = transactionID
        self.reason = reason
    }

    /// The rules of §6 and §7 the simulated node enforces.
    public enum Reason: Hashable, Sendable {
        case alreadyInMempool
        case alreadyAccepted
        case doubleSpend(KaspaOutpoint, spender: [UInt8])
        /// An input is neither in the UTXO set nor an output of a mempool transaction.
        case orphan
        case feeUnderComputeMass(fee: UInt64, minimum: UInt64, mass: UInt64)
        case feeUnderTransientMass(fee: UInt64, minimum: UInt64, mass: UInt64)
        case computeMassTooLarge(UInt64)
        case transientMassTooLarge(UInt64)
        case storageMassTooLarge(UInt64)
        case nonStandardOutputScript(output: Int)
        case spendsMoreThanInputs(outputs: UInt64, inputs: UInt64)
        /// A wrong BIP-340 (or ECDSA) signature: the script leaves false on the stack.
        case badSignature
        /// A signature script the simulated engine cannot run (not `0x41 ‖ sig64 ‖ type`,
        /// an unknown sighash type, a P2SH input): the script error in words.
        case unverifiableScript(String)
        case sigOpCount(input: Int, given: UInt8, calculated: UInt8)
        case immatureCoinbase(input: Int, KaspaOutpoint, blockDaaScore: UInt64, virtualDaaScore: UInt64)
        case zeroValueOutput(Int)
        case noInputs
        case duplicateInputs
        case mempoolFull
        /// A member a submission needs is `null` (a chain walk's form of a transaction, not a
        /// submission's); never over the wire, where decoding refuses it first.
        case incomplete(String)
    }

    /// The reason's text (after the `Rejected transaction <txid>: ` prefix).
    public var reasonText: String {
        let id = Hex.encode(transactionID)
        let limit = SimulatedChain.maximumStandardMass
        switch reason {
        case .alreadyInMempool: return "transaction \(id) is already in the mempool"
        case .alreadyAccepted: return "transaction \(id) was already accepted by the consensus"
        case .doubleSpend(let outpoint, let spender):
            return "output (\(Hex.encode(outpoint.transactionID)), \(outpoint.index)) already spent by transaction "
                + "\(Hex.encode(spender)) in the mempool"
        case .orphan: return "transaction \(id) is an orphan where orphan is disallowed"
        case .feeUnderComputeMass(let fee, let minimum, let mass):
            return "transaction \(id) is not standard: transaction has \(fee) fees which is under the required amount "
                + "of \(minimum) for compute mass \(mass)"
        case .feeUnderTransientMass(let fee, let minimum, let mass):
            return "transaction \(id) is not standard: transaction has \(fee) fees which is under the required amount "
                + "of \(minimum) for normalized transient mass \(mass) (proportional to transaction byte size)"
        case .computeMassTooLarge(let mass):
            return "transaction \(id) is not standard: transaction compute mass of \(mass) is larger than max allowed "
                + "size of \(limit)"
        case .transientMassTooLarge(let mass):
            return "transaction \(id) is not standard: transaction transient (storage) mass of \(mass) is larger than "
                + "max allowed size of \(limit)"
        case .storageMassTooLarge(let mass):
            return "transaction \(id) is not standard: transaction storage mass of \(mass) is larger than max allowed "
                + "size of \(limit)"
        case .nonStandardOutputScript(let output):
            return "transaction \(id) is not standard: transaction output #\(output): non-standard script form"
        case .spendsMoreThanInputs(let outputs, let inputs):
            return "transaction tries to spend \(outputs) while its total inputs amount is \(inputs)"
        case .badSignature:
            return "failed to verify the signature script: false stack entry at end of script execution"
        case .unverifiableScript(let reason): return "failed to verify the signature script: \(reason)"
        case .sigOpCount(let input, let given, let calculated):
            return "input \(input) sig op count is \(given), but the calculated value is \(calculated)"
        case .immatureCoinbase(let input, let outpoint, let blockDaaScore, let virtualDaaScore):
            return "one of the transaction inputs spends an immature UTXO: input \(input) tried to spend coinbase "
                + "outpoint (\(Hex.encode(outpoint.transactionID)), \(outpoint.index)) with daa score of "
                + "\(blockDaaScore) while the merging block daa score is \(virtualDaaScore) and the coinbase "
                + "maturity period of \(SimulatedChain.coinbaseMaturity) hasn't passed yet"
        case .zeroValueOutput(let output): return "transaction output \(output) has zero value"
        case .noInputs: return "transaction has no inputs"
        case .duplicateInputs: return "transaction has duplicate inputs"
        case .mempoolFull:
            return "transaction could not be added to the mempool because it's full with transactions with higher "
                + "priority"
        case .incomplete(let member): return "transaction is incomplete: \(member)"
        }
    }

    /// The node's whole answer: `Rejected transaction <txid>: <reason>`.
    public var message: String { "Rejected transaction \(Hex.encode(transactionID)): \(reasonText)" }

    public var description: String { message }
}
