import ArgumentParser
import CanonicalJSON
import Foundation
import RedoApp
import RedoProtocol

extension TasksCommand {
    /// `tasks stats`: completions, streaks, on-time rate, predictions and insights (issue 27 item 4).
    struct Stats: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "stats",
            abstract: "Statistics, predictions and insights from the task log, with the last 8 weeks as a chart.")

        @OptionGroup var options: ProfileOptions
        @Option(help: "Count completions from this instant on (YYYY-MM-DD or full timestamp).") var since: String?
        @Option(help: "Count completions before this instant (YYYY-MM-DD or full timestamp).") var until: String?
        @OptionGroup var zone: TimeZoneOption
        @Option(help: "Also write the 8-week chart as an SVG file.", completion: .file()) var svg: String?
        @Flag(help: "Print the figures as JSON.") var json = false

        func run() throws {
            let now = try options.wallTime()
            let since = try since.map { try ProfileOptions.wallTime($0, option: "--since") }
            let until = try until.map { try ProfileOptions.wallTime($0, option: "--until") }
            if let since, let until, until < since { throw CLIError("--until is before --since") }
            let timeZone = try zone.value()
            let tasks = try withTaskErrors { try options.tasks().state().tasks }
            let stats = TaskStatistics.compute(tasks: tasks, now: now, timeZone: timeZone, since: since, until: until)
            if let svg {
                do {
                    try Data(CompletionChart.svg(stats.lastEightWeeks).utf8).write(to: URL(fileURLWithPath: svg))
                } catch {
                    throw CLIError("--svg \(svg): cannot write the file (\(error.localizedDescription))")
                }
            }
            if json { return try RedoFileInput.printCanonical(try Self.json(stats)) }
            CommandIO.write(Self.text(stats))
        }

        static func json(_ stats: TaskStatistics) throws -> JSONValue {
            let byDay = try JSONObject(
                stats.completionsByDay.sorted { $0.key < $1.key }.map { ($0.key, .number(Double($0.value))) })
            let byPriority = try JSONObject(
                stats.byPriority.sorted { $0.key < $1.key }.map { (String($0.key), .number(Double($0.value))) })
            let predictions: [JSONValue] = try stats.predictions.map { prediction in
                .object(
                    try JSONObject([
                        ("taskId", .string(prediction.taskID.description)),
                        ("expectedCompletion", .string(prediction.expectedCompletion.description)),
                    ]))
            }
            return .object(
                try JSONObject([
                    ("completions", .number(Double(stats.completions))),
                    ("completionsByDay", .object(byDay)),
                    ("onTimeRate", stats.onTimeRate.map { .number($0) } ?? .null),
                    ("currentStreakDays", .number(Double(stats.currentStreakDays))),
                    ("longestStreakDays", .number(Double(stats.longestStreakDays))),
                    ("averageLeadTimeHours", stats.averageLeadTimeHours.map { .number($0) } ?? .null),
                    ("overdueNow", .number(Double(stats.overdueNow))),
                    ("byPriority", .object(byPriority)),
                    ("busiestWeekday", stats.busiestWeekdayName.map { .string($0) } ?? .null),
                    ("predictions", .array(predictions)),
                    ("expectedOverdueNextWeek", .number(Double(stats.expectedOverdueNextWeek))),
                    ("insights", .array(stats.insights.map { .string($0) })),
                ]))
        }

        static func text(_ stats: TaskStatistics) -> String {
            func percent(_ value: Double?) -> String { value.map { "\(Int(($0 * 100).rounded()))%" } ?? "-" }
            var lines = [
                "completions        \(stats.completions)",
                "on time            \(percent(stats.onTimeRate))",
                "streak             \(stats.currentStreakDays) days (longest \(stats.longestStreakDays))",
                "average lead time  " + (stats.averageLeadTimeHours.map { String(format: "%.1f h", $0) } ?? "-"),
                "overdue now        \(stats.overdueNow)",
                "busiest day        \(stats.busiestWeekdayName ?? "-")",
                "likely late, next 7 days  \(stats.expectedOverdueNextWeek)",
                "",
                "completions per week:",
            ]
            lines.append(CompletionChart.text(stats.lastEightWeeks).trimmingCharacters(in: .newlines))
            if !stats.insights.isEmpty {
                lines.append("")
                lines += stats.insights.map { "• " + $0 }
            }
            return lines.joined(separator: "\n") + "\n"
        }
    }
}
