public import CanonicalJSON

/// A standalone-valid v1 node (spec §2): typed members plus the exact JSON it came from.
///
/// Only `NodeValidator` makes these, so holding a `RedoNode` means every §6.2 check passed: the
/// id matches the content, and a present signature verifies.
///
/// The members live in one immutable box, so copying a node (sorting, grouping a million of them
/// during replay) costs one reference count, not one per string and array inside it.
public struct RedoNode: Sendable {
    final class Storage: Sendable {
        let id: NodeID
        let parents: [NodeID]
        let lamport: Int64
        let wall: WallTime
        let author: Author
        let taskID: TaskID
        let payload: NodePayload
        let signature: SignatureHex?
        let json: JSONObject

        init(
            id: NodeID, parents: [NodeID], lamport: Int64, wall: WallTime, author: Author, taskID: TaskID,
            payload: NodePayload, signature: SignatureHex?, json: JSONObject
        ) {
            self.id = id
            self.parents = parents
            self.lamport = lamport
            self.wall = wall
            self.author = author
            self.taskID = taskID
            self.payload = payload
            self.signature = signature
            self.json = json
        }
    }

    let storage: Storage

    init(
        id: NodeID, parents: [NodeID], lamport: Int64, wall: WallTime, author: Author, taskID: TaskID,
        payload: NodePayload, signature: SignatureHex?, json: JSONObject
    ) {
        storage = Storage(
            id: id, parents: parents, lamport: lamport, wall: wall, author: author, taskID: taskID,
            payload: payload, signature: signature, json: json)
    }

    public var id: NodeID { storage.id }
    public var parents: [NodeID] { storage.parents }
    /// `timestamp.lamport`, 1…2^53−1.
    public var lamport: Int64 { storage.lamport }
    /// `timestamp.wall`.
    public var wall: WallTime { storage.wall }
    public var author: Author { storage.author }
    public var taskID: TaskID { storage.taskID }
    public var payload: NodePayload { storage.payload }
    public var signature: SignatureHex? { storage.signature }
    /// The node object as validated; storing and sending it verbatim keeps ids stable (§11.2).
    public var json: JSONObject { storage.json }

    public var action: RedoAction { storage.payload.action }

    /// The total order key (spec §7.1): lamport, then wall, then id.
    public var orderKey: OrderKey {
        OrderKey(lamport: storage.lamport, wall: storage.wall.millisecondsSinceEpoch, id: storage.id)
    }

    /// The total order (spec §7.1): lamport, then wall, then id.
    public static func precedes(_ lhs: RedoNode, _ rhs: RedoNode) -> Bool {
        lhs.orderKey < rhs.orderKey
    }

    /// (lamport, wall, id) as plain integers, cheap to sort.
    public struct OrderKey: Sendable, Hashable, Comparable {
        public let lamport: Int64
        public let wall: Int64
        public let id: NodeID

        public static func < (lhs: OrderKey, rhs: OrderKey) -> Bool {
            if lhs.lamport != rhs.lamport { return lhs.lamport < rhs.lamport }
            if lhs.wall != rhs.wall { return lhs.wall < rhs.wall }
            return lhs.id < rhs.id
        }
    }
}
