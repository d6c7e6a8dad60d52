import ArgumentParser
import CommandLineContract
import RedoProtocol
import TandemBasics
import TaskStore

extension TasksCommand {
    /// `tasks done ID`: complete-todo on the current todo, then the next todo (spec §5).
    struct Done: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "done", abstract: "Complete the task's current todo and schedule the next one.")

        @OptionGroup var options: ProfileOptions
        @Argument(help: "Task id or a unique prefix of it.") var id: String
        @Flag(help: "Print the task as JSON (the shape of `tasks list --json`).") var json = false

        func run() throws {
            let now = try options.wallTime()
            let task = try withTaskErrors { try options.tasks().complete(id, now: now) }
            if json { return try TaskRowJSON.print(task, now: now) }
            guard !task.isOneTime else { return CommandIO.write("done; archived (a task done once)\n") }
            let next = task.currentTodo.map { options.clock.deadline($0.deadline.instant) } ?? "-"
            CommandIO.write("done; next due \(next)\n")
        }
    }
}

extension TasksCommand {
    /// `tasks snooze ID --until DATE`: SNOOZE with `newDeadline`.
    struct Snooze: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "snooze", abstract: "Move the current todo's deadline.")

        @OptionGroup var options: ProfileOptions
        @Argument(help: "Task id or a unique prefix of it.") var id: String
        @Option(help: "New deadline: \(DateArgument.accepted).") var until: String
        @Flag(help: "Print the task as JSON (the shape of `tasks list --json`).") var json = false

        func run() throws {
            let now = try options.wallTime()
            let deadline = try options.date(until, option: "--until")
            let task = try withTaskErrors { try options.tasks().snooze(id, until: deadline, now: now) }
            if json { return try TaskRowJSON.print(task, now: now) }
            CommandIO.write(
                "snoozed until \(task.currentTodo.map { options.clock.deadline($0.deadline.instant) } ?? "-")\n")
        }
    }
}

extension TasksCommand {
    /// `tasks edit ID [field options…]`: one UPDATE with the changed fields; `--due` and
    /// `--notes` one SNOOZE of the current todo.
    struct Edit: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Change a task's fields, its current todo's deadline, or append to the todo's notes.")

        /// `--private` or `--public`.
        enum Visibility: String, EnumerableFlag {
            case `private`, `public`
        }

        @OptionGroup var options: ProfileOptions
        @Argument(help: "Task id or a unique prefix of it.") var id: String
        @Option(help: "New title.") var title: String?
        @Option(help: "New description (an empty one clears it).") var description: String?
        @Option(help: "New priority \(RedoField.priority.boundsText).") var priority: Int64?
        @Option(help: "New story points, \(RedoField.storyPoints.boundsText).") var storyPoints: Int64?
        @Option(help: "Repeat every DAYS days after completion.") var every: Int64?
        @Flag(help: "Make the task private or public.") var visibility: Visibility?
        @Option(help: "Move the current todo's deadline: \(DateArgument.accepted).") var due: String?
        @Option(help: "Append this text to the current todo's notes.") var notes: String?
        @Flag(help: "Print the task as JSON (the shape of `tasks list --json`).") var json = false

        func run() throws {
            let now = try options.wallTime()
            let change = TaskChange(
                title: title, description: description, priority: priority, storyPoints: storyPoints,
                frequencyDays: every, privacy: visibility.map { $0 == .private },
                due: try due.map { try options.date($0, option: "--due") }, notes: notes)
            let task = try withTaskErrors { try options.tasks().edit(id, change, now: now) }
            if json { return try TaskRowJSON.printKeepingReplayMembers(task, now: now) }
            CommandIO.write("\(task.taskID.abbreviated)  p\(task.priority)  \(task.title)\n")
        }
    }
}

extension TasksCommand {
    /// `tasks archive ID`: ARCHIVE.
    struct Archive: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "archive", abstract: "Archive a task (hidden from list).")

        @OptionGroup var options: ProfileOptions
        @Argument(help: "Task id or a unique prefix of it.") var id: String
        @Flag(help: "Print the task as JSON (the shape of `tasks list --json`).") var json = false

        func run() throws {
            let now = try options.wallTime()
            let task = try withTaskErrors { try options.tasks().setArchived(id, true, now: now) }
            if json { return try TaskRowJSON.print(task, now: now) }
            CommandIO.write("archived\n")
        }
    }
}

extension TasksCommand {
    /// `tasks unarchive ID`: UNARCHIVE.
    struct Unarchive: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unarchive", abstract: "Bring an archived task back.")

        @OptionGroup var options: ProfileOptions
        @Argument(help: "Task id or a unique prefix of it.") var id: String
        @Flag(help: "Print the task as JSON (the shape of `tasks list --json`).") var json = false

        func run() throws {
            let now = try options.wallTime()
            let task = try withTaskErrors { try options.tasks().setArchived(id, false, now: now) }
            if json { return try TaskRowJSON.print(task, now: now) }
            CommandIO.write("unarchived\n")
        }
    }
}

extension TasksCommand {
    /// `tasks delete ID`: a DELETE on every branch (spec §7.4).
    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete", abstract: "Delete a task (a DELETE tombstone on each of its branches).")

        @OptionGroup var options: ProfileOptions
        @Argument(help: "Task id or a unique prefix of it (at least 4 characters).") var id: String
        @Flag(name: .long, help: "Delete without asking (a terminal is asked first).") var yes = false
        @Flag(help: "Print {taskId, deleted} as JSON.") var json = false

        struct Deleted: Encodable {
            let taskId: String
            let deleted: Bool
        }

        func run() throws {
            let now = try options.wallTime()
            let tasks = try options.tasks()
            let task = try withTaskErrors { try tasks.target(id) }
            // Issue 51 item 10: a terminal sees which task before it goes.
            if !yes, SecretPrompt.isInteractive {
                let answer = SecretPrompt.confirm(
                    "delete “\(CommandLineContract.terminalSafe(task.title))” (\(task.taskID.abbreviated))? [y/N] "
                )
                guard let answer, ["y", "yes"].contains(answer.lowercased()) else {
                    throw CLIError("nothing was deleted (--yes deletes without asking)")
                }
            }
            try withTaskErrors { try tasks.delete(id, now: now) }
            if json { return try CommandIO.printJSON(Deleted(taskId: task.taskID.description, deleted: true)) }
            CommandIO.write("deleted\n")
        }
    }
}
