/// The answer for one pushed node (issue 12 item 2): `accepted` (stored now), `duplicate`
/// (already stored: pushing again is a no-op) or `rejected` with a code — a Redo code of spec
/// §6.1 (`E_…`) or one of the server's (`E_KEY_NOT_REGISTERED`, `E_TASK_FORBIDDEN`).
public struct RedoNodePushResult: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case accepted, duplicate, rejected
    }

    public var id: String
    public var status: Status
    public var code: String?
    public var message: String?

    public init(id: String, status: Status, code: String? = nil, message: String? = nil) {
        self.id = id
        self.status = status
        self.code = code
        self.message = message
    }
}

/// `POST /api/redo/nodes` answer: one result per pushed node, in request order.
public struct RedoNodePushResponse: Codable, Sendable, Equatable {
    public var results: [RedoNodePushResult]

    public init(results: [RedoNodePushResult]) { self.results = results }
}

/// Codes the sync server adds to spec §6.1's for nodes it refuses.
public enum RedoSyncCode {
    /// `author.publicKey` is not a live device key of the pushing account (`POST /api/me/keys`).
    public static let keyNotRegistered = "E_KEY_NOT_REGISTERED"
    /// The node's task exists and the pushing account may not read it.
    public static let taskForbidden = "E_TASK_FORBIDDEN"
}
