import CanonicalJSON

/// Typed access to the members of one JSON object with errors that name the member (spec §6.2).
///
/// "Integer" follows spec §2: a JSON number with an integral value within ±(2^53−1); booleans
/// are never numbers. Optional members that are present must be well-typed (`null` is a schema
/// error, never "absent").
struct FieldReader {
    let object: JSONObject
    let path: String

    init(_ object: JSONObject, path: String) {
        self.object = object
        self.path = path
    }

    static let maxSafeInteger = 9_007_199_254_740_991.0

    func name(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Throws when a member outside `allowed` exists: reserved names → forbidden, others → schema.
    func rejectUnknownMembers(allowed: [String], reserved: Set<String> = []) throws(NodeValidationError) {
        // A handful of names each: comparing bytes beats hashing every key. Names are read in
        // place, not copied out with their values.
        let unknown = try object.members.withUnsafeBufferPointer { members throws(NodeValidationError) -> String? in
            var unknown: String?
            for index in members.indices {
                let key = members[index].key
                if allowed.contains(where: { KeyOrder.bytesEqual($0, key) }) { continue }
                if reserved.contains(key) { throw .forbiddenField("\(path) contains reserved field '\(key)'") }
                unknown = unknown ?? key
            }
            return unknown
        }
        if let unknown { throw .schemaMismatch("\(path) has unknown member '\(unknown)'") }
    }

    func requireValue(_ key: String) throws(NodeValidationError) -> JSONValue {
        guard let value = object[key] else { throw .schemaMismatch("\(name(key)) is required") }
        return value
    }

    func string(_ key: String) throws(NodeValidationError) -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let text) = value else { throw .schemaMismatch("\(name(key)) must be a string") }
        return text
    }

    func requireString(_ key: String) throws(NodeValidationError) -> String {
        guard let text = try string(key) else { throw .schemaMismatch("\(name(key)) is required") }
        return text
    }

    func nonEmptyString(_ key: String) throws(NodeValidationError) -> String? {
        guard let text = try string(key) else { return nil }
        guard !text.isEmpty else { throw .schemaMismatch("\(name(key)) must not be empty") }
        return text
    }

    func bool(_ key: String) throws(NodeValidationError) -> Bool? {
        guard let value = object[key] else { return nil }
        guard case .bool(let flag) = value else { throw .schemaMismatch("\(name(key)) must be a boolean") }
        return flag
    }

    func integer(_ key: String, in range: ClosedRange<Int64>? = nil) throws(NodeValidationError) -> Int64? {
        guard let value = object[key] else { return nil }
        guard let integer = Self.integer(value) else {
            throw .schemaMismatch("\(name(key)) must be an integer within ±(2^53−1)")
        }
        if let range, !range.contains(integer) {
            throw .schemaMismatch("\(name(key)) must be in \(range.lowerBound)…\(range.upperBound)")
        }
        return integer
    }

    static func integer(_ value: JSONValue) -> Int64? {
        guard case .number(let number) = value, number == number.rounded(.towardZero),
            number.magnitude <= maxSafeInteger
        else { return nil }
        return Int64(number)
    }

    func object(_ key: String) throws(NodeValidationError) -> JSONObject? {
        guard let value = object[key] else { return nil }
        guard case .object(let nested) = value else { throw .schemaMismatch("\(name(key)) must be an object") }
        return nested
    }

    func array(_ key: String) throws(NodeValidationError) -> [JSONValue]? {
        guard let value = object[key] else { return nil }
        guard case .array(let elements) = value else { throw .schemaMismatch("\(name(key)) must be an array") }
        return elements
    }

    func wallTime(_ key: String) throws(NodeValidationError) -> WallTime? {
        guard let text = try string(key) else { return nil }
        guard let wall = WallTime(text) else {
            throw .schemaMismatch("\(name(key)) must be YYYY-MM-DDTHH:mm:ss.sssZ and a real UTC instant")
        }
        return wall
    }

    func requireWallTime(_ key: String) throws(NodeValidationError) -> WallTime {
        guard let wall = try wallTime(key) else { throw .schemaMismatch("\(name(key)) is required") }
        return wall
    }

    func todoID(_ key: String) throws(NodeValidationError) -> TodoID? {
        guard let text = try string(key) else { return nil }
        guard let id = TodoID(text) else { throw .encodingViolation("\(name(key)) must be a lowercase UUID v4") }
        return id
    }

    func requireTodoID(_ key: String) throws(NodeValidationError) -> TodoID {
        guard let id = try todoID(key) else { throw .schemaMismatch("\(name(key)) is required") }
        return id
    }

    func nodeID(_ key: String) throws(NodeValidationError) -> NodeID? {
        guard let text = try string(key) else { return nil }
        return try Self.nodeID(text, name: name(key))
    }

    static func nodeID(_ value: JSONValue, name: String) throws(NodeValidationError) -> NodeID {
        guard case .string(let text) = value else { throw .schemaMismatch("\(name) must be a string") }
        return try nodeID(text, name: name)
    }

    static func nodeID(_ text: String, name: String) throws(NodeValidationError) -> NodeID {
        guard let id = NodeID(text) else { throw .encodingViolation("\(name) must be sha256:<64 lowercase hex>") }
        return id
    }
}
