/// The insights of `tasks stats`: short sentences, each read off the figures, most useful first
/// (what needs doing now, then what is about to slip, then habits).
enum TaskInsights {
    static func sentences(for stats: TaskStatistics, perDay: [Int64: Int], today: Int64) -> [String] {
        var sentences: [String] = []
        if stats.overdueNow > 0 {
            sentences.append("\(count(stats.overdueNow, "task is", "tasks are")) overdue now.")
        }
        if stats.expectedOverdueNextWeek > 0 {
            sentences.append(
                "\(count(stats.expectedOverdueNextWeek, "task", "tasks")) due in the next 7 days "
                    + "\(stats.expectedOverdueNextWeek == 1 ? "is" : "are") likely to be late at your usual pace.")
        }
        if let rate = stats.onTimeRate, stats.completions >= 5, rate < 0.5 {
            sentences.append("Only \(percent(rate)) of completions were on time; later deadlines may fit better.")
        }
        let thisWeek = (today - 6...today).reduce(0) { $0 + (perDay[$1] ?? 0) }
        let lastWeek = (today - 13...today - 7).reduce(0) { $0 + (perDay[$1] ?? 0) }
        if lastWeek > 0 && thisWeek != lastWeek {
            let change = Double(thisWeek - lastWeek) / Double(lastWeek)
            sentences.append(
                "You completed \(percent(abs(change))) \(change > 0 ? "more" : "fewer") todos in the last 7 days "
                    + "than in the 7 before.")
        } else if lastWeek == 0 && thisWeek > 0 {
            sentences.append(
                "You completed \(count(thisWeek, "todo", "todos")) in the last 7 days, none in the 7 before.")
        }
        if stats.currentStreakDays >= 2 {
            sentences.append("You are on a \(stats.currentStreakDays)-day streak.")
        }
        if stats.longestStreakDays >= 2 && stats.longestStreakDays > stats.currentStreakDays {
            sentences.append("Your longest streak is \(stats.longestStreakDays) days.")
        }
        if let rate = stats.onTimeRate, stats.completions >= 5, rate >= 0.5 {
            sentences.append("\(percent(rate)) of completions were on time.")
        }
        if let weekday = stats.busiestWeekdayName, stats.completions >= 7 {
            sentences.append("\(weekday.prefix(1).uppercased() + weekday.dropFirst()) is your busiest day.")
        }
        if let top = stats.byPriority.max(by: { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }),
            stats.completions >= 5
        {
            sentences.append("Most completions are of priority \(top.key) tasks.")
        }
        if stats.completions == 0 {
            sentences.append("No completions in this period yet.")
        }
        return sentences
    }

    private static func count(_ value: Int, _ one: String, _ many: String) -> String {
        "\(value) \(value == 1 ? one : many)"
    }

    private static func percent(_ value: Double) -> String {
        "\(Int((value * 100).rounded()))%"
    }
}
