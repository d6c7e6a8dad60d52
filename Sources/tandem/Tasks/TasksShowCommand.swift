import ArgumentParser
import RedoProtocol
import TandemBasics

extension TasksCommand {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show one task's replayed state (full id or unique prefix).")

        @OptionGroup var options: ProfileOptions

        @Argument(help: "Task id or a unique prefix of it.")
        var id: String

        @Flag(help: "Print the task as JSON (the replay schema).")
        var json = false

        func run() throws {
            let state = try withTaskErrors { try options.tasks().state() }
            let needle = id.lowercased()
            let matches = state.tasks.filter { $0.taskID.description.hasPrefix(needle) }
            guard !needle.isEmpty, let task = matches.first else { throw CLIError("no task '\(id)'") }
            guard matches.count == 1 else { throw CLIError("task prefix '\(id)' matches more than one task") }
            if json { return try RedoFileInput.printCanonical(task.jsonValue) }
            var lines = [
                "\(task.taskID)  \(task.title)",
                "priority \(task.priority), story points \(task.storyPoints), every \(task.frequencyDays) days"
                    + (task.archived ? ", archived" : ""),
            ]
            if !task.description.isEmpty { lines.append(task.description) }
            let clock = options.clock
            for todo in task.todos {
                let status =
                    todo.completed.map { "done \(clock.text($0.instant))" }
                    ?? (todo.guid == task.currentTodo?.guid ? "current" : "open")
                lines.append(
                    "  todo \(todo.guid.abbreviated) due \(clock.deadline(todo.deadline.instant)) \(status)"
                )
            }
            CommandIO.write(lines.joined(separator: "\n") + "\n")
        }
    }
}
