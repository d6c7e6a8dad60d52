import KaspaNode
import KaspaRPC
import KaspaTransaction
import TandemBasics

/// Hands signed Kaspa transactions relayed to `POST /kasia/transactions` to the node (issue 25
/// item 5), so a relay-mode client reaches the Kaspa network through its server.
struct KaspaBridge: Sendable {
    let client: KaspaNodeClient
    let timeout: Duration

    /// What the node made of a submission: the receipt's `"kaspa"` member.
    enum Outcome: Sendable, Equatable {
        case accepted(node: String)
        /// The node's reason verbatim (kaspa-node.md §6), or why no node answered.
        case refused(reason: String)
    }

    /// A node that already holds the transaction (in its mempool, or accepted by consensus) has
    /// it: that is an acceptance under the transaction's id (kaspa-node.md §6), as the wallet
    /// counts it. It happens when the same transaction is relayed twice, or when a submit whose
    /// answer was lost is sent again on a new connection.
    func submit(_ transaction: KaspaTransaction) async -> Outcome {
        do {
            _ = try await client.call(
                .submitTransaction, RPCSubmitTransaction(transaction: RPCTransaction(transaction)),
                as: RPCTransactionID.self, timeout: timeout)
        } catch {
            guard case .refused(_, _, let message) = error else { return .refused(reason: error.description) }
            guard KaspaSubmitRejection(message: message) == .alreadyKnown else { return .refused(reason: message) }
        }
        return .accepted(node: await client.node.map(URLRedaction.redact) ?? "")
    }
}
