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
    /// Submitted, but the node's answer never came: the transaction may be in a mempool. It is
    /// kept as pending (so nothing spends its inputs twice) and offered again later.
    case outcomeUnknown(transactionID: String, reason: String)
    case invalidRequest(String)
    case storage(String)

    public var description: String {
        switch self {
        case .notConnected(let profile):
            "profile \(profile) is not on the Kaspa network (run `tandem kaspa connect` first)"
        case .node(let error): error.description
        case .build(let error): error.description
        case .rejected(let id, let reason):
            "the node refused transaction \(id): \(Self.withoutPrefix(reason, id: id))"
        case .outcomeUnknown(let id, let reason):
            "transaction \(id) was sent but no node confirmed it (\(reason)); it is kept as pending and sent again with the next transaction"
        case .invalidRequest(let reason): reason
        case .storage(let reason): reason
        }
    }

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
