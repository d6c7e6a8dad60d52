public import CanonicalJSON

/// The standalone checks of spec §6.2: everything that needs only the node itself.
///
/// Structure and encodings are checked member by member first (steps 2–4), then the payload size,
/// the content id and the signature (steps 5–7), like the reference, so a node with one fault
/// reports that fault rather than its side effect on the hash.
public struct NodeValidator: Sendable {
    public let signaturePolicy: SignaturePolicy

    public init(signaturePolicy: SignaturePolicy = .verifyIfPresent) {
        self.signaturePolicy = signaturePolicy
    }

    static let topLevelMembers = [
        "id", "version", "parents", "timestamp", "author", "action", "taskId", "data", "signature",
    ]
    static let authorMembers = ["userId", "deviceId", "publicKey", "name", "email", "deviceName"]
    static let timestampMembers = ["lamport", "wall"]
    static let dataMembers = ["payload"]
    /// Names a payload may never use (spec §5): node, timestamp, author and state members.
    static let reservedPayloadNames = Set(topLevelMembers).union(authorMembers).union([
        "lamport", "wall", "guid", "todoTasks", "created", "archived", "deleted", "archive",
    ])
    /// `len(UTF-8(JCS(payload)))` limit (spec §6.2 step 5, §6.4).
    public static let maxPayloadBytes = 1_048_576

    /// Parses node text strictly (step 1) and validates it.
    ///
    /// Text already in canonical form (as nodes are stored and sent) gives its content body by
    /// cutting `id` and `signature` out of it, instead of writing the parsed node again.
    public func validate(bytes: some Sequence<UInt8>) throws(NodeValidationError) -> RedoNode {
        let parsed = try Self.parse(bytes)
        return try validate(parsed.value, verifyingSignature: true, canonicalText: parsed.remainder)
    }

    private static func parse(_ bytes: some Sequence<UInt8>) throws(NodeValidationError) -> ParsedText {
        do {
            return try JSONParser().parseNotingForm(bytes, omitting: ContentAddress.omittedMembers)
        } catch {
            throw .schemaMismatch("node text is not I-JSON: \(error)")
        }
    }

    /// Validates a parsed node (steps 2–7).
    public func validate(_ value: JSONValue) throws(NodeValidationError) -> RedoNode {
        try validate(value, verifyingSignature: true)
    }

    /// Steps 1–6 and the id check, without the Ed25519 verify: for bytes a local store verified in
    /// full when it stored them (issue 12 item 6, seed 004 §12), so reading them back costs a parse
    /// and a hash, not a signature check. Never use it for bytes from outside the store.
    public func revalidate(verifiedBytes bytes: some Sequence<UInt8>) throws(NodeValidationError) -> RedoNode {
        let parsed = try Self.parse(bytes)
        return try validate(parsed.value, verifyingSignature: false, canonicalText: parsed.remainder)
    }

    /// `canonicalText`: the node's own text without `id` and `signature`, when that text was
    /// canonical — then it is the content body.
    private func validate(
        _ value: JSONValue, verifyingSignature: Bool, canonicalText: CanonicalObjectText? = nil
    ) throws(NodeValidationError) -> RedoNode {
        guard case .object(let object) = value else { throw .schemaMismatch("node must be a JSON object") }
        let node = FieldReader(object, path: "")
        try node.rejectUnknownMembers(allowed: Self.topLevelMembers)

        let version = try node.requireValue("version")
        guard FieldReader.integer(version) == 1 else { throw .schemaMismatch("version must be the integer 1") }
        let idText = try node.requireString("id")
        let id = try FieldReader.nodeID(idText, name: "id")
        let actionText = try node.requireString("action")
        guard let action = RedoAction(rawValue: actionText) else {
            throw .schemaMismatch("action '\(actionText)' is not one of the nine actions")
        }
        let parents = try readParents(node, action: action)
        let (lamport, wall) = try readTimestamp(node)
        if action == .create && lamport != 1 { throw .lamportViolation("CREATE must have lamport 1") }
        let author = try readAuthor(node)
        let taskIDText = try node.requireString("taskId")
        guard let taskID = TaskID(taskIDText) else { throw .encodingViolation("taskId must be a lowercase UUID v4") }
        let payloadObject = try readData(node)
        let payload = try PayloadReader.read(payloadObject, action: action)
        let signature = try readSignature(node)

        let body: ContentAddress.Body
        if let canonicalText, let cut = ContentAddress.body(cutFrom: canonicalText, of: object) {
            body = cut
        } else {
            body = try ContentAddress.canonicalBody(of: object)
        }
        guard body.payloadByteCount <= Self.maxPayloadBytes else {
            throw .schemaMismatch(
                "canonical payload is \(body.payloadByteCount) bytes; the limit is \(Self.maxPayloadBytes)")
        }
        guard ContentAddress.id(ofCanonicalBody: body.bytes) == id else {
            throw .hashMismatch("id does not match the content")
        }
        if let signature {
            guard !verifyingSignature || NodeSignature.isValid(signature, for: body.bytes, publicKey: author.publicKey)
            else {
                throw .invalidSignature("Ed25519 verification failed")
            }
        } else if signaturePolicy == .required {
            throw .invalidSignature("signature is required at a sync boundary")
        }
        return RedoNode(
            id: id, parents: parents, lamport: lamport, wall: wall, author: author, taskID: taskID,
            payload: payload, signature: signature, json: object)
    }

    private func readParents(_ node: FieldReader, action: RedoAction) throws(NodeValidationError) -> [NodeID] {
        guard let elements = try node.array("parents") else { throw .schemaMismatch("parents is required") }
        var parents: [NodeID] = []
        parents.reserveCapacity(elements.count)
        for element in elements {
            parents.append(try FieldReader.nodeID(element, name: "parents[]"))
        }
        guard action.allowedParentCounts.contains(parents.count) else {
            throw .schemaMismatch(
                "\(action.rawValue) needs \(action.allowedParentCounts) parents, has \(parents.count)")
        }
        if parents.count > 1 && Set(parents).count != parents.count {
            throw .schemaMismatch("parents contains a duplicate")
        }
        return parents
    }

    private func readTimestamp(_ node: FieldReader) throws(NodeValidationError) -> (Int64, WallTime) {
        guard let object = try node.object("timestamp") else { throw .schemaMismatch("timestamp is required") }
        let timestamp = FieldReader(object, path: "timestamp")
        try timestamp.rejectUnknownMembers(allowed: Self.timestampMembers)
        guard let lamport = try timestamp.integer("lamport", in: 1...9_007_199_254_740_991) else {
            throw .schemaMismatch("timestamp.lamport is required")
        }
        return (lamport, try timestamp.requireWallTime("wall"))
    }

    private func readAuthor(_ node: FieldReader) throws(NodeValidationError) -> Author {
        guard let object = try node.object("author") else { throw .schemaMismatch("author is required") }
        let author = FieldReader(object, path: "author")
        try author.rejectUnknownMembers(allowed: Self.authorMembers)
        let userIDText = try author.requireString("userId")
        guard let deviceID = DeviceID(try author.requireString("deviceId")) else {
            throw .schemaMismatch("author.deviceId must not be empty")
        }
        guard let publicKey = PublicKeyHex(try author.requireString("publicKey")) else {
            throw .encodingViolation("author.publicKey must be 64 lowercase hex digits")
        }
        guard Self.isUserID(userIDText, of: publicKey) else {
            throw .encodingViolation("author.userId must be the first 32 hex digits of author.publicKey")
        }
        let name = try author.string("name")
        let deviceName = try author.string("deviceName")
        let email = try author.string("email")
        if let email, !Self.isEmail(email) { throw .schemaMismatch("author.email is not an email address") }
        return Author(
            userID: UserID(unchecked: userIDText), publicKey: publicKey, deviceID: deviceID, name: name, email: email,
            deviceName: deviceName)
    }

    /// True when `text` is the first 32 hex digits of the key's text (compared as bytes in
    /// place: the generic `elementsEqual` over two UTF-8 views was 0.5 % of a validation).
    static func isUserID(_ text: String, of publicKey: PublicKeyHex) -> Bool {
        var text = text
        var key = publicKey.description
        return text.withUTF8 { userID in
            key.withUTF8 { key in
                userID.count == 32 && key.count >= 32
                    && userID.elementsEqual(UnsafeBufferPointer(rebasing: key[..<32]))
            }
        }
    }

    /// The reference's email format: `^[^@\s]+@[^@\s]+$`.
    /// `\s` is Python's: Unicode White_Space plus U+001C…U+001F.
    static func isEmail(_ text: String) -> Bool {
        var atSigns = 0
        var atOffset = 0
        var length = 0
        for scalar in text.unicodeScalars {
            if scalar == "@" {
                atSigns += 1
                atOffset = length
            } else if scalar.isASCII
                ? (scalar == " " || (0x09...0x0D).contains(scalar.value) || (0x1C...0x1F).contains(scalar.value))
                : scalar.properties.isWhitespace
            {
                return false
            }
            length += 1
        }
        return atSigns == 1 && atOffset > 0 && atOffset < length - 1
    }

    private func readData(_ node: FieldReader) throws(NodeValidationError) -> JSONObject {
        guard let object = try node.object("data") else { throw .schemaMismatch("data is required") }
        let data = FieldReader(object, path: "data")
        try data.rejectUnknownMembers(allowed: Self.dataMembers)
        guard let payload = try data.object("payload") else { throw .schemaMismatch("data.payload is required") }
        return payload
    }

    private func readSignature(_ node: FieldReader) throws(NodeValidationError) -> SignatureHex? {
        guard let text = try node.string("signature") else { return nil }
        guard let signature = SignatureHex(text) else {
            throw .encodingViolation("signature must be 128 lowercase hex digits")
        }
        return signature
    }
}
