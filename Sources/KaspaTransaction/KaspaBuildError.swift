/// Why the builder made no transaction. Each case says what to change.
public enum KaspaBuildError: Error, Equatable, Sendable, CustomStringConvertible {
    case noUTXOs
    case zeroAmount
    /// A UTXO given to the builder is not locked to the wallet key's Schnorr address.
    case notOurUTXO(index: Int)
    case insufficientFunds(available: UInt64, needed: UInt64)
    /// Over the standard mass (kasia-protocol §12): which mass, its value and the limit.
    case computeMassTooHigh(mass: UInt64, limit: UInt64)
    case storageMassTooHigh(mass: UInt64, limit: UInt64)
    /// KIP-9 storage mass cannot be computed (a zero-value output).
    case storageMassIncomputable
    case fixedPointNotReached
    case signing(KaspaTransactionError)

    public var description: String {
        switch self {
        case .noUTXOs: "no UTXOs to spend"
        case .zeroAmount: "the amount must be above 0 sompi"
        case .notOurUTXO(let index): "UTXO \(index) is not locked to this key's Schnorr address"
        case .insufficientFunds(let available, let needed):
            "insufficient funds: \(available) sompi available, \(needed) needed with the fee"
        case .computeMassTooHigh(let mass, let limit):
            "compute mass \(mass) is over the standard \(limit): use fewer inputs or a shorter payload"
        case .storageMassTooHigh(let mass, let limit):
            "storage mass \(mass) is over the standard \(limit) (KIP-9): an output is too small for its inputs; send more or use a larger UTXO"
        case .storageMassIncomputable: "storage mass cannot be computed: an output has value 0"
        case .fixedPointNotReached: "the fee did not settle (change and storage mass keep moving)"
        case .signing(let error): error.description
        }
    }
}
