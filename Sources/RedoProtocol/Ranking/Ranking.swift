import Foundation

/// Task ranking (spec §10).
///
/// The urgency curve is normative and identical on every platform (IEEE-754 doubles). How the
/// weights combine is not (RES-17); we use the recommended default
/// `R = priority · U(t) · sqrt(storyPoints)` with t in fractional days until the current todo's
/// deadline. Archived tasks and tasks without a current todo are not ranked.
public enum Ranking {
    /// `U(t) = max(0.1, 1 + 10 / (1 + e^(0.4·t)))`; e^x overflowing to +∞ gives U = 1.
    public static func urgency(daysUntilDue t: Double) -> Double {
        max(0.1, 1.0 + 10.0 / (1.0 + exp(0.4 * t)))
    }

    /// The rank of a task at `now`, or nil when it is archived or has no current todo.
    public static func rank(_ task: RedoTask, now: WallTime) -> Double? {
        guard !task.archived, let todo = task.currentTodo else { return nil }
        return rank(priority: task.priority, storyPoints: task.storyPoints, due: todo.deadline, now: now)
    }

    /// The rank at `now` of a rankable task with these members and its current todo due at `due`.
    public static func rank(priority: Int64, storyPoints: Int64, due: WallTime, now: WallTime) -> Double {
        let days = Double(due.millisecondsSinceEpoch - now.millisecondsSinceEpoch) / 86_400_000
        return Double(priority) * urgency(daysUntilDue: days) * Double(storyPoints).squareRoot()
    }

    /// A ranked task.
    public struct Entry: Sendable {
        public let task: RedoTask
        public let rank: Double
    }

    /// Rankable tasks by rank descending, then taskId ascending.
    public static func ranked(_ tasks: [RedoTask], now: WallTime) -> [Entry] {
        tasks.compactMap { task in rank(task, now: now).map { Entry(task: task, rank: $0) } }
            .sorted { $0.rank != $1.rank ? $0.rank > $1.rank : $0.task.taskID < $1.task.taskID }
    }
}
