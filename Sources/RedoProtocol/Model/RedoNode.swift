public import CanonicalJSON

/// A standalone-valid v1 node (spec §2): typed members plus the exact JSON it came from.
///
/// Only `NodeValidator` makes these, so holding a `RedoNode` means every §6.2 check passed: the
/// id matches the content, and a present signature verifies.
public struct RedoNode: Sendable {
    public let id: NodeID
    public let parents: [NodeID]
    /// `timestamp.lamport`, 1…2^53−1.
    public let lamport: Int64
    /// `timestamp.wall`.
    public let wall: WallTime
    public let author: Author
    public let taskID: TaskID
    public let payload: NodePayload
    public let signature: SignatureHex?
    /// The node object as validated; storing and sending it verbatim keeps ids stable (§11.2).
    public let json: JSONObject

    public var action: RedoAction { payload.action }

    /// The total order key (spec §7.1): lamport, then wall, then id.
    public static func precedes(_ lhs: RedoNode, _ rhs: RedoNode) -> Bool {
        (lhs.lamport, lhs.wall.millisecondsSinceEpoch, lhs.id) < (rhs.lamport, rhs.wall.millisecondsSinceEpoch, rhs.id)
    }
}
