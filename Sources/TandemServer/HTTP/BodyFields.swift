import CanonicalJSON
import TandemAPI

/// Reads the members of a JSON object body by its TandemAPI DTO's `Field` cases and collects
/// zod-style issues (`[body.email] Invalid email address`, betterauth-api.md §1), so a request
/// with several problems gets them all in one 400 VALIDATION_ERROR.
struct BodyFields<Field: CodingKey> {
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
    func value(_ key: Field) -> JSONValue? { object?[key.stringValue] }

    /// Whether the body is a JSON object; records an issue when it is not.
    mutating func requireObject() -> Bool {
        guard object == nil else { return true }
        issues.append("[body] Invalid input: expected object, received \(topLevelKind)")
        return false
    }

    /// A required string; records an issue when missing or not a string.
    mutating func string(_ key: Field) -> String? {
        switch value(key) {
        case .string(let text): return text
        case let other:
            record(key, expected: "string", received: other.map(Self.kind) ?? "undefined")
            return nil
        }
    }

    /// An optional string: absent or null is nil; another type records an issue.
    mutating func optionalString(_ key: Field) -> String? {
        switch value(key) {
        case .none, .null?: return nil
        case .string(let text)?: return text
        case let other?:
            record(key, expected: "string", received: Self.kind(other))
            return nil
        }
    }

    /// An optional boolean.
    mutating func optionalBool(_ key: Field) -> Bool? {
        switch value(key) {
        case .none, .null?: return nil
        case .bool(let flag)?: return flag
        case let other?:
            record(key, expected: "boolean", received: Self.kind(other))
            return nil
        }
    }

    /// An optional array of strings.
    mutating func optionalStrings(_ key: Field) -> [String]? {
        switch value(key) {
        case .none, .null?: return nil
        case .array(let items)?:
            var out: [String] = []
            for item in items {
                guard case .string(let text) = item else {
                    addIssue(key, "Invalid input: expected array of strings")
                    return nil
                }
                out.append(text)
            }
            return out
        case let other?:
            record(key, expected: "array", received: Self.kind(other))
            return nil
        }
    }

    /// A string checked on its own, ahead of the schema: when present and not a string, that
    /// one issue is the whole 400 (BetterAuth checks `callbackURL` before anything else, §3).
    func leadingString(_ key: Field) throws -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let text) = value else {
            throw APIFailure.validation([Self.typeIssue(key, expected: "string", received: Self.kind(value))])
        }
        return text
    }

    /// Records zod's "too big" issue when a stored string is longer than its cap (issue 14
    /// audit: every stored field is capped, see `ServerLimits`).
    mutating func cap(_ key: Field, _ text: String?, _ limit: Int) {
        guard let text, !ServerLimits.fits(text, limit) else { return }
        addIssue(key, "Too big: expected string to have <=\(limit) characters")
    }

    /// Records `[body.<key>] <message>`.
    mutating func addIssue(_ key: Field, _ message: String) { issues.append("[body.\(key.stringValue)] \(message)") }

    private mutating func record(_ key: Field, expected: String, received: String) {
        issues.append(Self.typeIssue(key, expected: expected, received: received))
    }

    private static func typeIssue(_ key: Field, expected: String, received: String) -> String {
        "[body.\(key.stringValue)] Invalid input: expected \(expected), received \(received)"
    }

    func throwIfInvalid() throws {
        if !issues.isEmpty { throw APIFailure.validation(issues) }
    }

    /// The DTO `read` builds from the fields, or every issue it recorded in one 400.
    mutating func decode<DTO>(_ read: (inout Self) -> DTO?) throws -> DTO {
        let value = read(&self)
        try throwIfInvalid()
        guard let value else { throw APIFailure.validation(issues) }
        return value
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

extension RequestBody {
    /// The fields of `body`, read by this DTO's keys; a body that is not a JSON object is a 400
    /// with that one issue.
    static func fields(of body: JSONBody) throws -> BodyFields<Field> {
        var fields = BodyFields<Field>(body)
        guard fields.requireObject() else { throw APIFailure.validation(fields.issues) }
        return fields
    }
}
