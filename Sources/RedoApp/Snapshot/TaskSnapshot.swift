public import Foundation
public import RedoProtocol

/// What a Home Screen widget's timeline provider stores (issue 27 item 5; seed 004's "task list +
/// stats" widget): the top tasks by rank, how many are due today and overdue, what was done today
/// and the streak, and the next deadline (when the widget should refresh).
/// `Codable`, with plain members, so an app group container can hold it as JSON.
public struct TaskSnapshot: Sendable, Equatable, Codable {
    public struct Item: Sendable, Equatable, Codable {
        public var taskId: String
        public var title: String
        public var priority: Int64
        /// The current todo's deadline (`YYYY-MM-DDTHH:mm:ss.sssZ`).
        public var due: String
        public var rank: Double
        public var overdue: Bool
    }

    /// When it was made, in the same form as `due`.
    public var generated: String
    public var top: [Item]
    /// Open todos (current, of tasks not archived) due later today, in the time zone given.
    public var dueToday: Int
    /// Open todos past their deadline.
    public var overdue: Int
    /// The soonest deadline still ahead, if any.
    public var nextDeadline: String?
    /// Todos completed today, in the time zone given.
    public var completedToday: Int
    /// Consecutive days with a completion, ending today (or yesterday when none yet today), as
    /// `tasks stats` counts them.
    public var currentStreakDays: Int

    /// The snapshot of `tasks` at `now`: the `limit` highest-ranked, days in `timeZone`.
    public init(tasks: [RedoTask], now: WallTime, timeZone: TimeZone, limit: Int = 5) {
        let agenda = TaskAgenda(tasks: tasks, now: now, timeZone: timeZone)
        generated = now.description
        top = Ranking.ranked(tasks, now: now).prefix(max(0, limit)).map { entry in
            let deadline = entry.task.currentTodo?.deadline ?? now
            return Item(
                taskId: entry.task.taskID.description, title: entry.task.title, priority: entry.task.priority,
                due: deadline.description, rank: entry.rank, overdue: deadline < now)
        }
        overdue = agenda.items.filter(\.overdue).count
        dueToday = agenda.items.count - overdue
        nextDeadline = agenda.nextDeadline?.description
        let nowMs = now.millisecondsSinceEpoch
        var completions: [Int64] = []
        for task in tasks {
            for todo in task.todos { if let done = todo.completed { completions.append(done.millisecondsSinceEpoch) } }
        }
        let earliest = completions.min() ?? nowMs
        let calendar = DayCalendar(
            timeZone: timeZone, covering: min(earliest, nowMs)...max(nowMs, completions.max() ?? nowMs))
        let days = Set(completions.map(calendar.day(of:)))
        let today = calendar.day(of: nowMs)
        completedToday = completions.filter { calendar.day(of: $0) == today }.count
        var streak = 0
        var day = days.contains(today) ? today : today - 1
        while days.contains(day) {
            streak += 1
            day -= 1
        }
        currentStreakDays = streak
    }
}

/// The open todos due today or overdue (`tandem tasks today`, the "due today" shortcut), overdue
/// first: soonest deadline first, ties by task id.
public struct TaskAgenda: Sendable, Equatable {
    public struct Item: Sendable, Equatable {
        public let task: RedoTask
        public let deadline: WallTime
        public let overdue: Bool
    }

    public let items: [Item]
    /// The soonest current deadline at or after `now`, today or later.
    public let nextDeadline: WallTime?

    public init(tasks: [RedoTask], now: WallTime, timeZone: TimeZone) {
        let nowMs = now.millisecondsSinceEpoch
        let calendar = DayCalendar(timeZone: timeZone, covering: nowMs...(nowMs + 2 * 86_400_000))
        let today = calendar.day(of: nowMs)
        var items: [Item] = []
        var next: WallTime?
        for task in tasks where !task.archived {
            guard let deadline = task.currentTodo?.deadline else { continue }
            if deadline >= now, next.map({ deadline < $0 }) ?? true { next = deadline }
            if deadline < now || calendar.day(of: deadline.millisecondsSinceEpoch) <= today {
                items.append(Item(task: task, deadline: deadline, overdue: deadline < now))
            }
        }
        self.items = items.sorted {
            $0.deadline != $1.deadline ? $0.deadline < $1.deadline : $0.task.taskID < $1.task.taskID
        }
        nextDeadline = next
    }
}
