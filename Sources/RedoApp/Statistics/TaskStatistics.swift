public import Foundation
public import RedoProtocol

/// The figures of `tandem tasks stats` (issue 27 item 4), computed from replayed state only: the
/// log stays the only truth, so equal logs in any order give equal figures.
///
/// A *completion* is a todo with a `completed` time, of any task in the state (archived ones
/// too; deleted tasks have left the state). The window keeps completions with
/// `since ≤ completed < until`; days are calendar days in `timeZone`.
public struct TaskStatistics: Sendable, Equatable {
    public struct Prediction: Sendable, Equatable {
        public let taskID: TaskID
        public let expectedCompletion: WallTime
    }

    /// Completions in the window.
    public var completions: Int
    /// `YYYY-MM-DD` → completions that day; days with none are absent.
    public var completionsByDay: [String: Int]
    /// Completions at or before their todo's deadline ÷ completions; nil when none.
    public var onTimeRate: Double?
    /// Consecutive days with a completion, ending today, or yesterday when today has none yet.
    /// "Today" is the window's last day when the window ends before now.
    public var currentStreakDays: Int
    public var longestStreakDays: Int
    /// Mean hours from a todo's creation (its create-todo node's wall) to its completion; nil
    /// when none.
    public var averageLeadTimeHours: Double?
    /// Tasks, not archived, whose current todo is past its deadline at `now` (an orphaned open
    /// todo, spec §8, is not actionable and not counted).
    public var overdueNow: Int
    /// Priority (the task's current one) → completions.
    public var byPriority: [Int64: Int]
    /// The weekday with the most completions, 0 = Monday; the earliest in the week on a tie;
    /// nil when none.
    public var busiestWeekday: Int?
    /// One per active task, by task id.
    public var predictions: [Prediction]
    /// Active tasks due within the next 7 days that their prediction puts after the deadline.
    public var expectedOverdueNextWeek: Int
    /// Short sentences, most useful first, each from the figures above.
    public var insights: [String]
    /// Completions in the window per week, for the 8 weeks ending today (the window's last day
    /// when it ends before now), oldest first: the chart's bars.
    public var lastEightWeeks: [WeekBar]

    public struct WeekBar: Sendable, Equatable {
        /// The first day of the 7 (`YYYY-MM-DD`).
        public let start: String
        public let completions: Int

        public init(start: String, completions: Int) {
            self.start = start
            self.completions = completions
        }
    }

    /// The busiest weekday's name, `"monday"` … `"sunday"`.
    public var busiestWeekdayName: String? { busiestWeekday.map { DayCalendar.weekdayNames[$0] } }
}

extension TaskStatistics {
    /// Computes every figure over `tasks` at `now`.
    ///
    /// Predictions: a task's *lateness* samples are, for each of its completed todos, completion
    /// time − that todo's deadline (negative when early), over its whole history (not the
    /// window). The user's pace is the median over every task's samples. A task with 3 or more
    /// samples is expected late by its own median; with 1–2 by a blend of its median and the
    /// user's (weights n and 3 − n); with none, by the user's median, or 0 without any history.
    /// The expected completion is the current deadline plus that lateness, never before `now`.
    public static func compute(
        tasks: [RedoTask], now: WallTime, timeZone: TimeZone, since: WallTime? = nil, until: WallTime? = nil
    ) -> TaskStatistics {
        let nowMs = now.millisecondsSinceEpoch
        var windowed: [(completed: Int64, deadline: Int64, created: Int64, priority: Int64)] = []
        var lateness: [TaskID: [Int64]] = [:]
        var allLateness: [Int64] = []
        var earliest = nowMs
        var latest = nowMs
        for task in tasks {
            for todo in task.todos {
                guard let completed = todo.completed?.millisecondsSinceEpoch else { continue }
                let late = completed - todo.deadline.millisecondsSinceEpoch
                lateness[task.taskID, default: []].append(late)
                allLateness.append(late)
                if let since, completed < since.millisecondsSinceEpoch { continue }
                if let until, completed >= until.millisecondsSinceEpoch { continue }
                windowed.append(
                    (completed, todo.deadline.millisecondsSinceEpoch, todo.wall.millisecondsSinceEpoch, task.priority))
                earliest = min(earliest, completed)
                latest = max(latest, completed)
            }
        }
        let calendar = DayCalendar(
            timeZone: timeZone,
            covering: (min(earliest, until?.millisecondsSinceEpoch ?? nowMs) - 60 * 86_400_000)...latest)
        var stats = TaskStatistics(
            completions: windowed.count, completionsByDay: [:], onTimeRate: nil, currentStreakDays: 0,
            longestStreakDays: 0, averageLeadTimeHours: nil, overdueNow: 0, byPriority: [:], busiestWeekday: nil,
            predictions: [], expectedOverdueNextWeek: 0, insights: [], lastEightWeeks: [])

        var perDay: [Int64: Int] = [:]
        var onTime = 0
        var leadTotal: Double = 0
        var weekdays = [Int](repeating: 0, count: 7)
        for completion in windowed {
            let day = calendar.day(of: completion.completed)
            perDay[day, default: 0] += 1
            weekdays[DayCalendar.weekday(day)] += 1
            if completion.completed <= completion.deadline { onTime += 1 }
            leadTotal += Double(completion.completed - completion.created) / 3_600_000
            stats.byPriority[completion.priority, default: 0] += 1
        }
        for (day, count) in perDay { stats.completionsByDay[DayCalendar.dateString(day)] = count }
        if !windowed.isEmpty {
            stats.onTimeRate = Double(onTime) / Double(windowed.count)
            stats.averageLeadTimeHours = leadTotal / Double(windowed.count)
            let most = weekdays.max() ?? 0
            stats.busiestWeekday = weekdays.firstIndex(of: most)
        }

        let anchor = until.map { min(nowMs, $0.millisecondsSinceEpoch - 1) } ?? nowMs
        let today = calendar.day(of: anchor)
        let days = perDay.keys.sorted()
        stats.longestStreakDays = longestRun(days)
        var streakEnd = perDay[today] != nil ? today : today - 1
        while perDay[streakEnd] != nil {
            stats.currentStreakDays += 1
            streakEnd -= 1
        }
        stats.lastEightWeeks = (0..<8).reversed().map { week in
            let last = today - Int64(7 * week)
            let first = last - 6
            let count = (first...last).reduce(0) { $0 + (perDay[$1] ?? 0) }
            return WeekBar(start: DayCalendar.dateString(first), completions: count)
        }

        let pace = median(allLateness) ?? 0
        let weekAhead = nowMs + 7 * 86_400_000
        for task in tasks.sorted(by: { $0.taskID < $1.taskID }) {
            guard !task.archived, let todo = task.currentTodo else { continue }
            let deadline = todo.deadline.millisecondsSinceEpoch
            if deadline < nowMs { stats.overdueNow += 1 }
            let samples = lateness[task.taskID] ?? []
            let expectedLate: Int64
            switch samples.count {
            case 0: expectedLate = pace
            case 1, 2:
                let own = median(samples) ?? 0
                let weight = Int64(samples.count)
                expectedLate = (own * weight + pace * (3 - weight)) / 3
            default: expectedLate = median(samples) ?? 0
            }
            let expected = max(nowMs, deadline.addingReportingOverflow(expectedLate).partialValue)
            let expectedTime = WallTime(millisecondsSinceEpoch: expected) ?? now
            stats.predictions.append(Prediction(taskID: task.taskID, expectedCompletion: expectedTime))
            if deadline >= nowMs && deadline < weekAhead && expected > deadline { stats.expectedOverdueNextWeek += 1 }
        }
        stats.insights = TaskInsights.sentences(for: stats, perDay: perDay, today: today)
        return stats
    }

    /// The longest run of consecutive days in sorted `days`.
    static func longestRun(_ days: [Int64]) -> Int {
        var longest = 0
        var run = 0
        var previous: Int64?
        for day in days {
            run = previous.map { day == $0 + 1 } == true ? run + 1 : 1
            longest = max(longest, run)
            previous = day
        }
        return longest
    }

    /// The median of `values` (the mean of the middle two for an even count, rounded down).
    static func median(_ values: [Int64]) -> Int64? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        if sorted.count % 2 == 1 { return sorted[middle] }
        return DayCalendar.floorDivide(sorted[middle - 1] + sorted[middle], 2)
    }
}
