import ArgumentParser
import RedoProtocol

/// `tasks done ID`: complete-todo on the current todo, then the next todo (spec §5).
struct TasksDoneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "done", abstract: "Complete the task's current todo and schedule the next one.")

    @OptionGroup var options: TasksOptions
    @Argument(help: "Task id or a unique prefix of it.") var id: String

    func run() throws {
        let now = try options.currentTime()
        let task = try withTaskErrors { try options.editor().complete(id, now: now) }
        CommandIO.write("done; next due \(task.currentTodo?.deadline.description ?? "-")\n")
    }
}

/// `tasks snooze ID --until DATE`: SNOOZE with `newDeadline`.
struct TasksSnoozeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze", abstract: "Move the current todo's deadline.")

    @OptionGroup var options: TasksOptions
    @Argument(help: "Task id or a unique prefix of it.") var id: String
    @Option(help: "New deadline (YYYY-MM-DD or full timestamp).") var until: String

    func run() throws {
        let now = try options.currentTime()
        let deadline = try TasksOptions.date(until, option: "--until")
        let task = try withTaskErrors { try options.editor().snooze(id, until: deadline, now: now) }
        CommandIO.write("snoozed until \(task.currentTodo?.deadline.description ?? "-")\n")
    }
}

/// `tasks edit ID [--title …] [--priority …]`: UPDATE.
struct TasksEditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Change a task's title or priority.")

    @OptionGroup var options: TasksOptions
    @Argument(help: "Task id or a unique prefix of it.") var id: String
    @Option(help: "New title.") var title: String?
    @Option(help: "New priority 1–5.") var priority: Int64?

    func run() throws {
        let now = try options.currentTime()
        let task = try withTaskErrors { try options.editor().edit(id, title: title, priority: priority, now: now) }
        CommandIO.write("\(task.taskID.description.prefix(8))  p\(task.priority)  \(task.title)\n")
    }
}

/// `tasks archive ID`: ARCHIVE.
struct TasksArchiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "archive", abstract: "Archive a task (hidden from list).")

    @OptionGroup var options: TasksOptions
    @Argument(help: "Task id or a unique prefix of it.") var id: String

    func run() throws {
        let now = try options.currentTime()
        _ = try withTaskErrors { try options.editor().setArchived(id, true, now: now) }
        CommandIO.write("archived\n")
    }
}

/// `tasks unarchive ID`: UNARCHIVE.
struct TasksUnarchiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unarchive", abstract: "Bring an archived task back.")

    @OptionGroup var options: TasksOptions
    @Argument(help: "Task id or a unique prefix of it.") var id: String

    func run() throws {
        let now = try options.currentTime()
        _ = try withTaskErrors { try options.editor().setArchived(id, false, now: now) }
        CommandIO.write("unarchived\n")
    }
}

/// `tasks delete ID`: a DELETE on every branch (spec §7.4).
struct TasksDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a task (a DELETE tombstone on each of its branches).")

    @OptionGroup var options: TasksOptions
    @Argument(help: "Task id or a unique prefix of it.") var id: String

    func run() throws {
        let now = try options.currentTime()
        try withTaskErrors { try options.editor().delete(id, now: now) }
        CommandIO.write("deleted\n")
    }
}
