public import KaspaNode
public import KaspaTransaction

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
    case invalidRequest(String)
    case storage(String)

    public var description: String {
        switch self {
        case .notConnected(let profile):
            "profile \(profile) is not on the Kaspa network (run `tandem kaspa connect` first)"
        case .node(let error): error.description
        case .build(let error): error.description
        case .rejected(let id, let reason): "the node refused transaction \(id): \(reason)"
        case .invalidRequest(let reason): reason
        case .storage(let reason): reason
        }
    }
}
