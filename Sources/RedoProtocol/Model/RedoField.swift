public import CanonicalJSON

/// One field of a task or of a todo, described once (issue 46 item 5; spec §5, §8, §9): its JSON
/// member name, type and bounds, the value a CREATE that leaves it out gives it, whether CREATE and
/// UPDATE carry it, and how a MERGE resolves it. The payload reader, the merge's `manual` values,
/// the replay's defaults and JSON, the task editor and the task query read their bounds here, and
/// the web app's modules are held to the same rows through `redo-fields.json`. A new field is a
/// row in ``all`` plus its property on ``RedoTask`` or ``TodoTask``.
public struct RedoField: Sendable, Hashable {
    /// Whether the field belongs to the task or to each of its todos.
    public enum Owner: String, Sendable {
        case task, todo
    }

    /// The JSON type of the field's value; a time is a string in the wall format (spec §2).
    public enum ValueType: String, Sendable {
        case string, boolean, integer, time
    }

    /// How a MERGE resolves the field when its parents disagree (spec §9).
    public enum Merge: String, Sendable {
        /// `max` and `min` pick among the parents' values.
        case numeric
        /// `max` and `min` do not apply and fall back to `lww`.
        case scalar
    }

    /// The member name in payloads, in the replay's JSON and in a MERGE resolution's `path`.
    public let key: String
    public let owner: Owner
    public let type: ValueType
    /// The inclusive bounds of an integer field; every integer also stays within ±(2^53 − 1).
    public let range: ClosedRange<Int64>?
    /// A string that must not be empty (the title).
    public let nonEmpty: Bool
    /// Whether `null` is a value of the field (a todo's `completed`: not yet).
    public let nullable: Bool
    /// The value of a task field a CREATE leaves out (spec §5 [RES-7]); nil for todo fields,
    /// which their own actions set.
    public let defaultValue: JSONValue?
    /// Whether CREATE and UPDATE carry the field in their payload.
    public let inTaskPayload: Bool
    public let merge: Merge
    /// What a value outside the bounds is told, after the field's name: "must be 1–5".
    public let rule: String

    /// The largest integer JSON carries exactly (spec §2).
    public static let maxSafeInteger: Int64 = 9_007_199_254_740_991

    private init(
        _ key: String, _ owner: Owner, _ type: ValueType, range: ClosedRange<Int64>? = nil, nonEmpty: Bool = false,
        nullable: Bool = false, defaultValue: JSONValue? = nil, inTaskPayload: Bool = false, merge: Merge = .scalar,
        rule: String
    ) {
        self.key = key
        self.owner = owner
        self.type = type
        self.range = range
        self.nonEmpty = nonEmpty
        self.nullable = nullable
        self.defaultValue = defaultValue
        self.inTaskPayload = inTaskPayload
        self.merge = merge
        self.rule = rule
    }

    public static let title = RedoField(
        "title", .task, .string, nonEmpty: true, defaultValue: .string(""), inTaskPayload: true,
        rule: "must not be empty")
    public static let description = RedoField(
        "description", .task, .string, defaultValue: .string(""), inTaskPayload: true, rule: "must be text")
    public static let privacy = RedoField(
        "privacy", .task, .boolean, defaultValue: .bool(false), inTaskPayload: true, rule: "must be true or false")
    public static let storyPoints = RedoField(
        "storyPoints", .task, .integer, range: 0...maxSafeInteger, defaultValue: .number(1), inTaskPayload: true,
        merge: .numeric, rule: "must be 0 or more")
    public static let priority = RedoField(
        "priority", .task, .integer, range: 1...5, defaultValue: .number(3), inTaskPayload: true, merge: .numeric,
        rule: "must be 1–5")
    public static let frequencyDays = RedoField(
        "frequencyDays", .task, .integer, range: 1...maxSafeInteger, defaultValue: .number(7), inTaskPayload: true,
        merge: .numeric, rule: "must be at least 1 day")
    public static let archived = RedoField(
        "archived", .task, .boolean, defaultValue: .bool(false), rule: "must be true or false")
    public static let deadline = RedoField("deadline", .todo, .time, rule: "must be a time")
    public static let notes = RedoField("notes", .todo, .string, rule: "must be text")
    public static let completed = RedoField("completed", .todo, .time, nullable: true, rule: "must be a time or null")

    /// Every field, tasks' first, in the order of spec §9.
    public static let all: [RedoField] = [
        title, description, privacy, storyPoints, priority, frequencyDays, archived, deadline, notes, completed,
    ]
    /// The task's fields a MERGE resolves (spec §9).
    public static let taskFields = all.filter { $0.owner == .task }
    /// A todo's fields a MERGE resolves (spec §9).
    public static let todoFields = all.filter { $0.owner == .todo }
    /// The fields CREATE and UPDATE carry (spec §5).
    public static let taskPayloadFields = all.filter(\.inTaskPayload)

    /// Fields are told apart by their key.
    public static func == (lhs: RedoField, rhs: RedoField) -> Bool { lhs.key == rhs.key }

    public func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The field named `key`, if any.
    public static func named(_ key: String) -> RedoField? { all.first { $0.key == key } }

    /// An integer field's bounds as people read them: "1–5", "0 or more"; empty for others.
    public var boundsText: String {
        guard let range else { return "" }
        if range.upperBound == Self.maxSafeInteger { return "\(range.lowerBound) or more" }
        return "\(range.lowerBound)–\(range.upperBound)"
    }

    /// The default of a string field (empty when it has none).
    public var defaultText: String {
        if case .string(let text)? = defaultValue { return text }
        return ""
    }

    /// The default of a boolean field (false when it has none).
    public var defaultFlag: Bool {
        if case .bool(let flag)? = defaultValue { return flag }
        return false
    }

    /// The default of an integer field (0 when it has none).
    public var defaultInteger: Int64 {
        if case .number(let number)? = defaultValue, let integer = Int64(exactly: number) { return integer }
        return 0
    }

    /// Whether `value` is a value of this field: its type, its bounds, and `null` only where
    /// the field takes it. An integer is a JSON number with an integral value (spec §2).
    public func accepts(_ value: JSONValue) -> Bool {
        switch (type, value) {
        case (_, .null): return nullable
        case (.string, .string(let text)): return !(nonEmpty && text.isEmpty)
        case (.boolean, .bool): return true
        case (.integer, _):
            guard let number = FieldReader.integer(value) else { return false }
            return range?.contains(number) ?? true
        case (.time, .string(let text)): return WallTime(text) != nil
        default: return false
        }
    }

    /// The row as the `redo-fields.json` vector writes it.
    public var jsonValue: JSONValue {
        get throws {
            var members: [(String, JSONValue)] = [
                ("key", .string(key)), ("owner", .string(owner.rawValue)), ("type", .string(type.rawValue)),
                ("nonEmpty", .bool(nonEmpty)), ("nullable", .bool(nullable)), ("inTaskPayload", .bool(inTaskPayload)),
                ("merge", .string(merge.rawValue)), ("rule", .string(rule)),
                ("default", defaultValue ?? .null),
            ]
            if let range {
                members.append(("min", .number(Double(range.lowerBound))))
                members.append(("max", .number(Double(range.upperBound))))
            }
            return .object(try JSONObject(members))
        }
    }
}

extension TaskFieldChanges {
    /// The given value of a task payload field, as its payload member carries it; nil when the
    /// change leaves it out (or the field is not one CREATE and UPDATE carry).
    public func value(of field: RedoField) -> JSONValue? {
        switch field {
        case .title: title.map(JSONValue.string)
        case .description: description.map(JSONValue.string)
        case .privacy: privacy.map(JSONValue.bool)
        case .storyPoints: storyPoints.map { .number(Double($0)) }
        case .priority: priority.map { .number(Double($0)) }
        case .frequencyDays: frequencyDays.map { .number(Double($0)) }
        default: nil
        }
    }
}
