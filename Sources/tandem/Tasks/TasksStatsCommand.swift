import ArgumentParser
import CanonicalJSON
import CommandLineContract
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
        @Option(help: "Count completions from this instant on (YYYY-MM-DD: that day's start in --time-zone).")
        var since: String?
        @Option(help: "Count completions before this instant (YYYY-MM-DD: up to and including that day).")
        var until: String?
        @OptionGroup var zone: TimeZoneOption
        @Option(help: "Also write the 8-week chart as an SVG file.", completion: .file()) var svg: String?
        @Flag(help: "Print the figures as JSON.") var json = false

        func run() throws {
            let now = try options.wallTime()
            let timeZone = try zone.value()
            let since = try since.map { try Self.instant($0, option: "--since", zone: timeZone, dayEnd: false) }
            let until = try until.map { try Self.instant($0, option: "--until", zone: timeZone, dayEnd: true) }
            if let since, let until, until <= since { throw CLIError("--until is not after --since") }
            let tasks = try withTaskErrors { try options.tasks().liveTasks() }
            let stats = TaskStatistics.compute(tasks: tasks, now: now, timeZone: timeZone, since: since, until: until)
            if let svg {
                do {
                    try Data(CompletionChart.svg(stats.lastEightWeeks).utf8).write(to: URL(fileURLWithPath: svg))
                } catch {
                    throw CLIError("--svg: cannot write \(CommandLineContract.plainText(error))")
                }
                CommandIO.writeError("tandem: wrote \(svg)")
            }
            if json { return try RedoFileInput.printCanonical(try Self.json(stats)) }
            CommandIO.write(Self.text(stats))
        }

        /// A full timestamp as given, or a day (`YYYY-MM-DD`) in `zone`: its start, or with
        /// `dayEnd` the start of the next day (so the day itself is counted).
        static func instant(_ text: String, option: String, zone: TimeZone, dayEnd: Bool) throws -> WallTime {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard text.utf8.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]),
                let day = Int(parts[2])
            else { return try ProfileOptions.wallTime(text, option: option) }
            _ = try ProfileOptions.wallTime(text, option: option)  // the same checks as every date option
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            guard let start = calendar.date(from: DateComponents(year: year, month: month, day: day)),
                let instant = dayEnd ? calendar.date(byAdding: .day, value: 1, to: start) : start,
                let wall = WallTime(millisecondsSinceEpoch: Int64((instant.timeIntervalSince1970 * 1000).rounded()))
            else { throw CLIError("\(option) '\(text)' is not a day in \(zone.identifier)") }
            return wall
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
                        ("expectedCompletionAt", .string(prediction.expectedCompletion.description)),
                        // The last release's name, kept for one more (docs/cli-json.md).
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
