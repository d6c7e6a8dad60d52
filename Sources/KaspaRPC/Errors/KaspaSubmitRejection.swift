/// What a `submitTransaction` refusal means for the sender, read from the node's text by the
/// substrings KaChat branches on (kaspa-node.md §6).
public enum KaspaSubmitRejection: Sendable, Hashable {
    /// `already in the mempool` / `already accepted by the consensus`: the transaction is through;
    /// it counts as sent under its id.
    case alreadyKnown
    /// `orphan`, `already spent`, `lacking a matching UTXO entry`: the inputs are stale; re-read
    /// the UTXOs, rebuild and resubmit once.
    case staleInputs
    /// `under the required amount of <min>`: rebuild paying at least `required` sompi (when the
    /// text states it).
    case feeTooLow(required: UInt64?)
    /// `full with transactions with higher priority`: back off and retry.
    case mempoolFull
    /// `transitional ibd state`: the node is syncing; try another node or later.
    case nodeSyncing
    /// Anything else: the message fails with the node's reason.
    case other

    public init(message: String) {
        if message.contains("already in the mempool") || message.contains("already accepted by the consensus") {
            self = .alreadyKnown
        } else if message.contains("orphan") || message.contains("already spent")
            || message.contains("lacking a matching UTXO entry")
        {
            self = .staleInputs
        } else if message.contains("under the required amount") {
            self = .feeTooLow(required: Self.requiredFee(in: message))
        } else if message.contains("mempool because it's full") {
            self = .mempoolFull
        } else if message.contains("transitional ibd state") {
            self = .nodeSyncing
        } else {
            self = .other
        }
    }

    /// `… under the required amount of <min> for …` → `<min>`.
    static func requiredFee(in message: String) -> UInt64? {
        guard let range = message.range(of: "under the required amount of ") else { return nil }
        return UInt64(message[range.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }
}
