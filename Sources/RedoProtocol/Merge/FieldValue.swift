import CanonicalJSON

/// One field's value, compared byte-wise for strings.
enum FieldValue: Equatable {
    case text(String)
    case integer(Int64)
    case flag(Bool)
    case instant(WallTime?)

    static func == (lhs: FieldValue, rhs: FieldValue) -> Bool {
        switch (lhs, rhs) {
        case (.text(let a), .text(let b)): a.utf8.elementsEqual(b.utf8)
        case (.integer(let a), .integer(let b)): a == b
        case (.flag(let a), .flag(let b)): a == b
        case (.instant(let a), .instant(let b)): a == b
        default: false
        }
    }

    /// The value as the replay's JSON writes it.
    var jsonValue: JSONValue {
        switch self {
        case .text(let text): .string(text)
        case .integer(let number): .number(Double(number))
        case .flag(let flag): .bool(flag)
        case .instant(let time): time.map { .string($0.description) } ?? .null
        }
    }

    /// A `manual` value of the field's type, or nil when it does not fit (then lww applies).
    static func manual(_ value: JSONValue, for field: RedoField) -> FieldValue? {
        guard field.accepts(value) else { return nil }
        switch (field.type, value) {
        case (.time, .null): return .instant(nil)
        case (.time, .string(let text)): return WallTime(text).map { FieldValue.instant($0) }
        case (.string, .string(let text)): return .text(text)
        case (.boolean, .bool(let flag)): return .flag(flag)
        case (.integer, _): return FieldReader.integer(value).map(FieldValue.integer)
        default: return nil
        }
    }
}

extension RedoTask {
    func value(of field: RedoField) -> FieldValue? {
        switch field {
        case .title: .text(title)
        case .description: .text(description)
        case .privacy: .flag(privacy)
        case .storyPoints: .integer(storyPoints)
        case .priority: .integer(priority)
        case .frequencyDays: .integer(frequencyDays)
        case .archived: .flag(archived)
        default: nil
        }
    }

    mutating func set(_ field: RedoField, to value: FieldValue) {
        switch (field, value) {
        case (.title, .text(let text)): title = text
        case (.description, .text(let text)): description = text
        case (.privacy, .flag(let flag)): privacy = flag
        case (.storyPoints, .integer(let number)): storyPoints = number
        case (.priority, .integer(let number)): priority = number
        case (.frequencyDays, .integer(let number)): frequencyDays = number
        case (.archived, .flag(let flag)): archived = flag
        default: break
        }
    }
}

extension TodoTask {
    func value(of field: RedoField) -> FieldValue? {
        switch field {
        case .deadline: .instant(deadline)
        case .notes: .text(notes)
        case .completed: .instant(completed)
        default: nil
        }
    }

    mutating func set(_ field: RedoField, to value: FieldValue) {
        switch (field, value) {
        case (.deadline, .instant(let time?)): deadline = time
        case (.notes, .text(let text)): notes = text
        case (.completed, .instant(let time)): completed = time
        default: break
        }
    }
}
