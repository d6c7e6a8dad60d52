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

    func submit(_ transaction: KaspaTransaction) async -> Outcome {
        do {
            _ = try await client.call(
                .submitTransaction, RPCSubmitTransaction(transaction: RPCTransaction(transaction)),
                as: RPCTransactionID.self, timeout: timeout)
            return .accepted(node: await client.node?.absoluteString ?? "")
        } catch {
            if case .refused(_, _, let message) = error { return .refused(reason: message) }
            return .refused(reason: error.description)
        }
    }
}
