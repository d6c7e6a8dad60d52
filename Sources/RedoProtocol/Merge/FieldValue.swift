import CanonicalJSON

/// A mergeable field of a task or todo (spec §9).
enum MergeField: String, CaseIterable {
    case title, description, privacy, storyPoints, priority, frequencyDays, archived
    case deadline, notes, completed

    static let taskFields: [MergeField] = [
        .title, .description, .privacy, .storyPoints, .priority, .frequencyDays, .archived,
    ]
    static let todoFields: [MergeField] = [.deadline, .notes, .completed]
}

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

    /// A `manual` value of the field's type, or nil when it does not fit (then lww applies).
    static func manual(_ value: JSONValue, for field: MergeField) -> FieldValue? {
        switch field {
        case .title:
            guard let text = value.stringValue, !text.isEmpty else { return nil }
            return .text(text)
        case .description, .notes:
            return value.stringValue.map(FieldValue.text)
        case .privacy, .archived:
            return value.boolValue.map(FieldValue.flag)
        case .storyPoints, .priority, .frequencyDays:
            guard let integer = FieldReader.integer(value) else { return nil }
            let allowed: ClosedRange<Int64> =
                switch field {
                case .priority: 1...5
                case .storyPoints: 0...Int64.max
                default: 1...Int64.max
                }
            return allowed.contains(integer) ? .integer(integer) : nil
        case .deadline:
            return value.stringValue.flatMap(WallTime.init).map { FieldValue.instant($0) }
        case .completed:
            if case .null = value { return .instant(nil) }
            return value.stringValue.flatMap(WallTime.init).map { FieldValue.instant($0) }
        }
    }
}

extension RedoTask {
    func value(of field: MergeField) -> FieldValue? {
        switch field {
        case .title: .text(title)
        case .description: .text(description)
        case .privacy: .flag(privacy)
        case .storyPoints: .integer(storyPoints)
        case .priority: .integer(priority)
        case .frequencyDays: .integer(frequencyDays)
        case .archived: .flag(archived)
        case .deadline, .notes, .completed: nil
        }
    }

    mutating func set(_ field: MergeField, to value: FieldValue) {
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
    func value(of field: MergeField) -> FieldValue? {
        switch field {
        case .deadline: .instant(deadline)
        case .notes: .text(notes)
        case .completed: .instant(completed)
        default: nil
        }
    }

    mutating func set(_ field: MergeField, to value: FieldValue) {
        switch (field, value) {
        case (.deadline, .instant(let time?)): deadline = time
        case (.notes, .text(let text)): notes = text
        case (.completed, .instant(let time)): completed = time
        default: break
        }
    }
}
