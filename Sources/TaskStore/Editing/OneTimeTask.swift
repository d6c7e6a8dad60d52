public import RedoApp
public import RedoProtocol

/// A task done once (issue 51 item 10): Redo v1 has no one-time value (`frequencyDays ≥ 1`,
/// spec §8 [SWIFT-10]), so Tandem writes one as a task that recurs every
/// ``OneTimeTask/frequencyDays`` days (a hundred years) and, when its todo is completed,
/// archives it instead of scheduling the next one.
///
/// Any Redo v1 client reads such a task as valid: it shows "every 36500 days" and, completing
/// it, schedules a todo a century away, which is harmless. Tandem reads any frequency of a
/// century or more as one-time, so a task another client gave a larger value is one too.
public enum OneTimeTask {
    /// The frequency a one-time task is written with, and the least one read as one-time.
    public static let frequencyDays: Int64 = 36_500

    /// Whether a task that recurs every `frequencyDays` days is done once.
    public static func isOneTime(frequencyDays: Int64) -> Bool { frequencyDays >= Self.frequencyDays }
}

extension RedoTask {
    /// Whether this task is done once (``OneTimeTask``): its completion archives it.
    public var isOneTime: Bool { OneTimeTask.isOneTime(frequencyDays: frequencyDays) }
}

extension TaskSummary {
    /// Whether this task is done once (``OneTimeTask``): its completion archives it.
    public var isOneTime: Bool { OneTimeTask.isOneTime(frequencyDays: frequencyDays) }
}
