import ArgumentParser
import CanonicalJSON
import RedoProtocol

extension TasksCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List active tasks by rank (priority × urgency × √storyPoints, spec §10), most urgent first.")

        @OptionGroup var options: ProfileOptions

        @Flag(help: "Print a JSON array of {taskId, title, priority, due, rank}.")
        var json = false

        func run() throws {
            let now = try options.wallTime()
            let state = try withTaskErrors { try options.tasks().state() }
            let ranked = Ranking.ranked(state.tasks, now: now)
            if json {
                let rows: [JSONValue] = try ranked.map { entry in
                    .object(
                        try JSONObject([
                            ("taskId", .string(entry.task.taskID.description)),
                            ("title", .string(entry.task.title)),
                            ("priority", .number(Double(entry.task.priority))),
                            ("due", entry.task.currentTodo.map { .string($0.deadline.description) } ?? .null),
                            ("rank", .number(entry.rank)),
                        ]))
                }
                return try RedoFileInput.printCanonical(.array(rows))
            }
            let lines = ranked.map { entry in
                let due = entry.task.currentTodo.map { $0.deadline.description.prefix(10) } ?? "-"
                return
                    "\(entry.task.taskID.description.prefix(8))  p\(entry.task.priority)  due \(due)  \(entry.task.title)"
            }
            CommandIO.write(lines.isEmpty ? "no active tasks\n" : lines.joined(separator: "\n") + "\n")
        }
    }
}
