public import CanonicalJSON

/// Why a producer could not build a node.
public enum NodeDraftError: Error, Sendable, CustomStringConvertible {
    /// The assembled node failed the standalone checks; producers must only emit valid nodes.
    case invalid(NodeValidationError)

    public var description: String {
        switch self {
        case .invalid(let error): "the new node is invalid: \(error)"
        }
    }
}

/// Builds, hashes and signs a new node (the producer side of spec §3 and §5).
///
/// The draft becomes a JSON object, its id is the hash of that object's body, the signature
/// covers the same bytes, and the result goes through `NodeValidator` so a producer can never
/// emit a node that other implementations would reject.
public struct NodeDraft: Sendable {
    public var taskID: TaskID
    public var action: RedoAction
    public var payload: JSONObject
    public var parents: [NodeID]
    public var lamport: Int64
    public var wall: WallTime
    public var author: Author

    public init(
        taskID: TaskID, action: RedoAction, payload: JSONObject, parents: [NodeID], lamport: Int64,
        wall: WallTime, author: Author
    ) {
        self.taskID = taskID
        self.action = action
        self.payload = payload
        self.parents = parents
        self.lamport = lamport
        self.wall = wall
        self.author = author
    }

    /// The node body (no `id`, no `signature`).
    public var body: JSONObject {
        var authorMembers: [(String, JSONValue)] = [
            ("userId", .string(author.userID.description)),
            ("deviceId", .string(author.deviceID.description)),
            ("publicKey", .string(author.publicKey.description)),
        ]
        if let name = author.name { authorMembers.append(("name", .string(name))) }
        if let email = author.email { authorMembers.append(("email", .string(email))) }
        if let deviceName = author.deviceName { authorMembers.append(("deviceName", .string(deviceName))) }
        return ReplayResult.object([
            ("version", .number(1)),
            ("parents", .array(parents.map { .string($0.description) })),
            (
                "timestamp",
                .object(
                    ReplayResult.object([
                        ("lamport", .number(Double(lamport))), ("wall", .string(wall.description)),
                    ]))
            ),
            ("author", .object(ReplayResult.object(authorMembers))),
            ("action", .string(action.rawValue)),
            ("taskId", .string(taskID.description)),
            ("data", .object(ReplayResult.object([("payload", .object(payload))]))),
        ])
    }

    /// The finished node, signed when a key is given (local-only nodes may stay unsigned).
    public func node(signedWith key: SigningKey?) throws(NodeDraftError) -> RedoNode {
        let body = self.body
        let canonical: ContentAddress.Body
        do {
            canonical = try ContentAddress.canonicalBody(of: body)
        } catch {
            throw .invalid(error)
        }
        var members = body.members
        members.append(
            JSONObject.Member(
                key: "id", value: .string(ContentAddress.id(ofCanonicalBody: canonical.bytes).description)))
        if let key {
            members.append(
                JSONObject.Member(key: "signature", value: .string(key.signature(for: canonical.bytes).description)))
        }
        do {
            let object = try JSONObject(members: members)
            return try NodeValidator().validate(.object(object))
        } catch let error as NodeValidationError {
            throw .invalid(error)
        } catch {
            throw .invalid(.schemaMismatch("node members collide"))
        }
    }
}
