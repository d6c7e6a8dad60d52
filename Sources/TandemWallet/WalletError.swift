public import KaspaNode
public import KaspaTransaction
import TandemBasics

/// Why a wallet operation did not happen. Each says what to change; nothing was submitted unless
/// the case says so.
public enum WalletError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The profile has no Kaspa network settings (`tandem kaspa connect` first).
    case notConnected(profile: String)
    case node(KaspaNodeError)
    /// The transaction could not be built (funds, mass): nothing was submitted.
    case build(KaspaBuildError)
    /// The node refused the transaction: its reason, verbatim.
    case rejected(transactionID: String, reason: String)
    /// Submitted, but the node's answer never came: the transaction may be in a mempool. It is
    /// kept as pending (so nothing spends its inputs twice) and offered again later.
    case outcomeUnknown(transactionID: String, reason: String)
    case invalidRequest(String)
    case storage(String)
    /// The node asks a fee rate above the limit (issue 50 item 1): nothing was submitted.
    case feerateAboveLimit(asked: Double, limit: Double)
    /// The fee would be above the limit, at the node's estimate or at the floor it stated when it
    /// refused one as too low: nothing was submitted.
    case feeAboveLimit(fee: UInt64, limit: UInt64)
    /// The fee is larger than the amount sent, which the send did not allow: nothing was submitted.
    case feeAboveAmount(fee: UInt64, amount: UInt64)
    /// The node's UTXOs of this address hold more than there is: its answer was not kept.
    case impossibleAmounts(WalletLedger.ImpossibleAmounts)
    /// Nothing to spend at all (issue 51 item 3): the message says how to fund the address, or
    /// to go back to a relay.
    case emptyWallet(address: String)

    public var description: String {
        switch self {
        case .notConnected(let profile):
            "profile \(profile) is not on the Kaspa network (run `tandem kaspa connect` first)"
        case .node(let error): error.description
        case .build(let error): Self.describe(error)
        case .emptyWallet(let address):
            "the wallet is empty: send KAS to \(address) (a handshake pays 0.2 KAS, each message a fee), or chat through a relay again with `tandem kaspa disconnect`"
        case .rejected(let id, let reason):
            "the node refused transaction \(id): \(Self.withoutPrefix(reason, id: id))"
        case .outcomeUnknown(let id, let reason):
            "transaction \(id) was sent but no node confirmed it (\(reason)); it is kept as pending and sent again with the next transaction"
        case .invalidRequest(let reason): reason
        case .storage(let reason): reason
        case .feerateAboveLimit(let asked, let limit):
            asked.isFinite
                ? "the node asks a fee rate of \(WalletFeeLimits.text(feerate: asked)) sompi/gram, above the limit of \(WalletFeeLimits.text(feerate: limit)): nothing was sent (allow it with --max-feerate \(WalletFeeLimits.text(feerate: asked.rounded(.up))))"
                : "the node's fee estimate is not a number: nothing was sent"
        case .feeAboveLimit(let fee, let limit):
            "the fee would be \(KaspaAmount.kas(fromSompi: fee)) KAS, above the limit of \(KaspaAmount.kas(fromSompi: limit)) KAS: nothing was sent (allow it with --max-fee \(KaspaAmount.kas(fromSompi: fee)))"
        case .feeAboveAmount(let fee, let amount):
            "the fee (\(KaspaAmount.kas(fromSompi: fee)) KAS) is larger than the amount (\(KaspaAmount.kas(fromSompi: amount)) KAS): nothing was sent (send anyway with --yes)"
        case .impossibleAmounts(let error): "\(error.description); its answer was not kept"
        }
    }

    /// A build failure with its amounts in KAS, as the command line takes them (issue 51 item 3).
    static func describe(_ error: KaspaBuildError) -> String {
        switch error {
        case .insufficientFunds(let available, let needed) where available != .max:
            "not enough KAS: \(KaspaAmount.kas(fromSompi: available)) KAS can be spent now, \(KaspaAmount.kas(fromSompi: needed)) KAS is needed with the fee: nothing was sent"
        case .storageMassTooHigh:
            "an output would be too small for the network (KIP-9 storage mass): send at least \(KaspaAmount.kas(fromSompi: smallestOutputSompi)) KAS, or spend from a larger UTXO: nothing was sent"
        case .zeroAmount: "the amount must be above 0 KAS"
        default: error.description
        }
    }

    /// The smallest output a transaction can carry alone within the standard storage mass:
    /// C ÷ 100,000 grams (about 0.1 KAS).
    public static let smallestOutputSompi =
        (KaspaMass.storageMassParameter + KaspaMass.maximumStandardMass - 1) / KaspaMass.maximumStandardMass

    /// The node's text without its `Rejected transaction <id>: ` lead, which the message says already.
    static func withoutPrefix(_ reason: String, id: String) -> String {
        for prefix in ["Rejected transaction \(id): ", "Rejected transaction "] where reason.hasPrefix(prefix) {
            let rest = reason.dropFirst(prefix.count)
            if prefix.hasSuffix(": ") { return String(rest) }
            if let colon = rest.range(of: ": ") { return String(rest[colon.upperBound...]) }
        }
        return reason
    }
}
