public import KaspaRPC

/// Why a node call or connection failed. Node refusals keep the node's text whole
/// (kaspa-node.md §6), so a caller can branch on it (``KaspaSubmitRejection``) and show it.
public enum KaspaNodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No WebSocket could be opened.
    case unreachable(node: String, reason: String)
    /// The connection closed or failed while a call waited, or before it was made.
    case disconnected(node: String, reason: String)
    /// No answer within the call's time limit.
    case timeout(node: String, method: String, seconds: Double)
    /// The node answered with an error frame: its text, verbatim.
    case refused(node: String, method: String, message: String)
    /// The answer is not the JSON the spec describes.
    case malformedAnswer(node: String, method: String, reason: String)
    /// The node answered the connect check but cannot serve this profile.
    case unusable(node: String, reason: NodeCheckFailure)
    /// Every node was tried and none is usable: each with its reason.
    case noUsableNode([NodeAttempt])
    /// The call was cancelled before an answer came.
    case cancelled

    public var description: String {
        switch self {
        case .unreachable(let node, let reason): "node \(node) is unreachable: \(reason)"
        case .disconnected(let node, let reason): "node \(node) disconnected: \(reason)"
        case .timeout(let node, let method, let seconds): "node \(node) did not answer \(method) within \(seconds) s"
        case .refused(let node, let method, let message): "node \(node) refused \(method): \(message)"
        case .malformedAnswer(let node, let method, let reason): "node \(node) answered \(method) badly: \(reason)"
        case .unusable(let node, let reason): "node \(node) is not usable: \(reason)"
        case .noUsableNode(let attempts):
            attempts.isEmpty
                ? "no node configured" : "no usable node: " + attempts.map(\.description).joined(separator: "; ")
        case .cancelled: "the node call was cancelled"
        }
    }

    /// True when another node (or the same one later) may succeed: the transport failed, not
    /// the request, or the node cannot serve now (it is in IBD).
    public var isTransportFailure: Bool {
        switch self {
        case .unreachable, .disconnected, .timeout, .unusable, .noUsableNode: true
        case .refused: isInitialBlockDownload
        case .malformedAnswer, .cancelled: false
        }
    }

    /// The node's IBD refusal, which rusty-kaspa answers to the UTXO, balance and chain calls
    /// while it syncs (kaspa-node.md §11): that node is not usable now, whatever was asked.
    public var isInitialBlockDownload: Bool {
        guard case .refused(_, _, let message) = self else { return false }
        return message.contains("transitional ibd state")
    }

    /// A chain walk from a block the node does not know (kaspa-node.md §11): the one refusal after
    /// which a walk starts again from its fallback start; any other is retried from the same page.
    public var isUnknownStartHash: Bool {
        guard case .refused(_, _, let message) = self else { return false }
        return message.hasPrefix("cannot find header")
    }
}

/// Why a node that answered `getServerInfo` cannot serve (kaspa-node.md §4 "getServerInfo").
public enum NodeCheckFailure: Error, Equatable, Sendable, CustomStringConvertible {
    case wrongNetwork(expected: KaspaNetworkID, found: KaspaNetworkID)
    case notSynced
    case noUTXOIndex

    public var description: String {
        switch self {
        case .wrongNetwork(let expected, let found): "it is on \(found), not \(expected)"
        case .notSynced: "it is not synced"
        case .noUTXOIndex: "it runs without --utxoindex"
        }
    }
}

/// One node tried by a connect, and why it was passed over.
public struct NodeAttempt: Equatable, Sendable, CustomStringConvertible {
    public var node: String
    public var reason: String

    public init(node: String, reason: String) {
        self.node = node
        self.reason = reason
    }

    public var description: String { "\(node): \(reason)" }
}
