import ArgumentParser
import CanonicalJSON
import RedoApp
import RedoProtocol
import TaskStore

extension TasksCommand {
    /// `tasks today`: open todos due today or overdue, overdue first (the "due today" shortcut).
    struct Today: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "today", abstract: "List open todos due today or overdue, overdue first.")

        @OptionGroup var options: ProfileOptions
        @OptionGroup var zone: TimeZoneOption
        @Flag(help: "Print a JSON array of {taskId, title, priority, due, overdue}.") var json = false

        func run() throws {
            let now = try options.wallTime()
            let intents = TaskIntents(editor: try options.tasks())
            let items: [TaskAgenda.Item]
            do { items = try intents.dueToday(now: now, timeZone: try zone.value()) } catch let error as TaskIntentError
            {
                throw CLIError(error.description)
            }
            if json {
                let rows: [JSONValue] = try items.map { item in
                    .object(
                        try JSONObject([
                            ("taskId", .string(item.task.taskID.description)),
                            ("title", .string(item.task.title)),
                            ("priority", .number(Double(item.task.priority))),
                            ("due", .string(item.deadline.description)),
                            ("overdue", .bool(item.overdue)),
                        ]))
                }
                return try RedoFileInput.printCanonical(.array(rows))
            }
            let lines = items.map { item in
                "\(item.task.taskID.description.prefix(8))  \(item.overdue ? "overdue" : "today  ")  "
                    + "\(item.deadline.description.prefix(16))  p\(item.task.priority)  \(item.task.title)"
            }
            CommandIO.write(lines.isEmpty ? "nothing due today\n" : lines.joined(separator: "\n") + "\n")
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
