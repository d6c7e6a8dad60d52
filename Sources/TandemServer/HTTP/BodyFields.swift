import CanonicalJSON

/// Reads fields of a JSON object body and collects zod-style issues
/// (`[body.email] Invalid email address`, betterauth-api.md §1), so a request with several
/// problems gets them all in one 400 VALIDATION_ERROR.
struct BodyFields {
    private let object: JSONObject?
    private let topLevelKind: String
    private(set) var issues: [String] = []

    init(_ body: JSONBody) {
        if case .object(let object) = body.value {
            self.object = object
            topLevelKind = "object"
        } else {
            object = nil
            topLevelKind = body.value.map(Self.kind) ?? "undefined"
        }
    }

    /// The raw value of `key`, if the body is an object that has it.
    func value(_ key: String) -> JSONValue? { object?[key] }

    /// Whether the body is a JSON object; records an issue when it is not.
    mutating func requireObject() -> Bool {
        guard object == nil else { return true }
        issues.append("[body] Invalid input: expected object, received \(topLevelKind)")
        return false
    }

    /// A required string; records an issue when missing or not a string.
    mutating func string(_ key: String) -> String? {
        switch value(key) {
        case .string(let text): return text
        case let other:
            issues.append("[body.\(key)] Invalid input: expected string, received \(other.map(Self.kind) ?? "undefined")")
            return nil
        }
    }

    /// An optional string: absent or null is nil; another type records an issue.
    mutating func optionalString(_ key: String) -> String? {
        switch value(key) {
        case .none, .null?: return nil
        case .string(let text)?: return text
        case let other?:
            issues.append("[body.\(key)] Invalid input: expected string, received \(Self.kind(other))")
            return nil
        }
    }

    /// An optional boolean.
    mutating func optionalBool(_ key: String) -> Bool? {
        switch value(key) {
        case .none, .null?: return nil
        case .bool(let flag)?: return flag
        case let other?:
            issues.append("[body.\(key)] Invalid input: expected boolean, received \(Self.kind(other))")
            return nil
        }
    }

    /// An optional array of strings.
    mutating func optionalStrings(_ key: String) -> [String]? {
        switch value(key) {
        case .none, .null?: return nil
        case .array(let items)?:
            var out: [String] = []
            for item in items {
                guard case .string(let text) = item else {
                    issues.append("[body.\(key)] Invalid input: expected array of strings")
                    return nil
                }
                out.append(text)
            }
            return out
        case let other?:
            issues.append("[body.\(key)] Invalid input: expected array, received \(Self.kind(other))")
            return nil
        }
    }

    mutating func addIssue(_ issue: String) { issues.append(issue) }

    func throwIfInvalid() throws {
        if !issues.isEmpty { throw APIFailure.validation(issues) }
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
