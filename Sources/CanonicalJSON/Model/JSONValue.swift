/// A parsed JSON value, as RFC 8785 (JCS) sees it: the canonical form is a function of this
/// value, never of the original text (spec §4).
///
/// Numbers are IEEE-754 doubles, like ECMAScript's `JSON.parse`, so `2.0` and `2` are the same
/// value and integer literals beyond 2^53 lose precision exactly as the other implementations do.
/// Strings are compared byte-wise (UTF-8), never by Swift's canonical equivalence, because `"é"`
/// and `"e\u{301}"` must hash differently.
public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

extension JSONValue: Equatable {
    /// Structural equality with byte-exact strings and keys (no Unicode normalization).
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): KeyOrder.bytesEqual(a, b)
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }
}

extension JSONValue {
    /// The member named `key` when this value is an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let object) = self else { return nil }
        return object[key]
    }

    /// The object, when this value is one.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The array, when this value is one.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The string, when this value is one.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The number, when this value is one.
    public var numberValue: Double? {
        if case .number(let number) = self { return number }
        return nil
    }

    /// The Boolean, when this value is one (never a number).
    public var boolValue: Bool? {
        if case .bool(let bool) = self { return bool }
        return nil
    }
}
