import ArgumentParser
import CanonicalJSON
import Foundation
import RedoApp
import RedoProtocol
import TandemBasics
import TaskStore

extension TasksCommand {
    /// `tasks today`: open todos due today or overdue, overdue first (the "due today" shortcut).
    struct Today: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "today", abstract: "List open todos due today or overdue, overdue first.")

        @OptionGroup var options: ProfileOptions
        @OptionGroup var zone: TimeZoneOption
        @Flag(help: "Print a JSON array of {taskId, title, priority, dueAt, overdue}.") var json = false

        func run() throws {
            let now = try options.wallTime()
            let intents = TaskIntents(editor: try options.tasks())
            let timeZone = try zone.value()
            let items = try Self.dueToday(intents, now: now, timeZone: timeZone)
            if json {
                let rows: [JSONValue] = try items.map { item in
                    .object(
                        try JSONObject([
                            ("taskId", .string(item.task.taskID.description)),
                            ("title", .string(item.task.title)),
                            ("priority", .number(Double(item.task.priority))),
                            ("dueAt", .string(item.deadline.description)),
                            ("due", .string(item.deadline.description)),  // kept for one release
                            ("overdue", .bool(item.overdue)),
                        ]))
                }
                return try RedoFileInput.printCanonical(.array(rows))
            }
            let clock = HumanTime(utc: options.utc, local: timeZone)
            let lines = items.map { item in
                "\(item.task.taskID.abbreviated)  \(item.overdue ? "overdue" : "today  ")  "
                    + "\(clock.deadline(item.deadline.instant))  p\(item.task.priority)  \(item.task.title)"
            }
            CommandIO.write(lines.isEmpty ? "nothing due today\n" : lines.joined(separator: "\n") + "\n")
        }

        private static func dueToday(_ intents: TaskIntents, now: WallTime, timeZone: TimeZone) throws
            -> [TaskAgenda.Item]
        {
            do { return try intents.dueToday(now: now, timeZone: timeZone) } catch {
                throw CLIError(error.description)
            }
        }
    }
}

extension TasksCommand {
    /// `tasks snapshot`: the widget's data, as its timeline provider would store it.
    struct Snapshot: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "snapshot",
            abstract: "Print the widget snapshot (top tasks by rank, due today, overdue, next deadline) as JSON.")

        @OptionGroup var options: ProfileOptions
        @OptionGroup var zone: TimeZoneOption
        @Option(help: "How many top tasks.") var limit = 5

        func validate() throws {
            guard limit >= 0 else { throw ValidationError("--limit must be 0 or more") }
        }

        func run() throws {
            let now = try options.wallTime()
            let intents = TaskIntents(editor: try options.tasks())
            let snapshot: TaskSnapshot
            do { snapshot = try intents.snapshot(now: now, timeZone: try zone.value(), limit: limit) } catch let error
                as TaskIntentError
            { throw CLIError(error.description) }
            try CommandIO.printJSON(snapshot)
        }
    }
}
