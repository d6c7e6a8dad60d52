public import RedoProtocol

/// What `TaskEditor.edit` changes (issue 27 item 1): any of the task's own fields, the current
/// todo's deadline, and notes appended to it. Nil means "leave as is".
public struct TaskChange: Sendable, Equatable {
    public var title: String?
    public var description: String?
    public var priority: Int64?
    public var storyPoints: Int64?
    public var frequencyDays: Int64?
    /// `true` = private, `false` = public.
    public var privacy: Bool?
    /// The current todo's new deadline (a SNOOZE with `newDeadline`).
    public var due: WallTime?
    /// Text appended to the current todo's notes (spec RES-8).
    public var notes: String?

    public init(
        title: String? = nil, description: String? = nil, priority: Int64? = nil, storyPoints: Int64? = nil,
        frequencyDays: Int64? = nil, privacy: Bool? = nil, due: WallTime? = nil, notes: String? = nil
    ) {
        self.title = title
        self.description = description
        self.priority = priority
        self.storyPoints = storyPoints
        self.frequencyDays = frequencyDays
        self.privacy = privacy
        self.due = due
        self.notes = notes
    }

    public var isEmpty: Bool { fields.isEmpty && due == nil && notes == nil }

    /// The task's own fields this change names.
    var fields: TaskFieldChanges {
        TaskFieldChanges(
            title: title, description: description, privacy: privacy, storyPoints: storyPoints, priority: priority,
            frequencyDays: frequencyDays)
    }
}

extension TaskFieldChanges {
    /// Only the fields whose value differs from `task`'s.
    func changing(_ task: RedoTask) -> TaskFieldChanges {
        TaskFieldChanges(
            title: title == task.title ? nil : title,
            description: description == task.description ? nil : description,
            privacy: privacy == task.privacy ? nil : privacy,
            storyPoints: storyPoints == task.storyPoints ? nil : storyPoints,
            priority: priority == task.priority ? nil : priority,
            frequencyDays: frequencyDays == task.frequencyDays ? nil : frequencyDays)
    }
}
