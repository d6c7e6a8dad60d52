import ArgumentParser
import RedoProtocol
import TandemBasics

extension TasksCommand {
    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a task (a CREATE and its first todo) and print its id.")

        @OptionGroup var options: ProfileOptions

        @Argument(help: "The task's title.")
        var title: String

        @Option(
            help: """
                Priority \(RedoField.priority.range?.lowerBound ?? 0) (backlog) … \
                \(RedoField.priority.range?.upperBound ?? 0) (urgent). Default \(RedoField.priority.defaultInteger).
                """)
        var priority: Int64?

        @Option(help: "First deadline: \(DateArgument.accepted). Default: now + --every days.")
        var due: String?

        @Option(help: "Repeat every DAYS days after completion. Default \(RedoField.frequencyDays.defaultInteger).")
        var every: Int64?

        @Flag(help: "A task done once: completing it archives it instead of scheduling the next todo.")
        var once = false

        @Option(help: "A longer description.")
        var description: String?

        @Option(
            help: "Story points, \(RedoField.storyPoints.boundsText). Default \(RedoField.storyPoints.defaultInteger).")
        var storyPoints: Int64?

        @Flag(help: "Mark the task private.")
        var `private` = false

        @Flag(help: "Print the new task as JSON (the shape of `tasks list --json`).")
        var json = false

        func validate() throws {
            if once, every != nil { throw ValidationError("--once and --every cannot be used together") }
        }

        func run() throws {
            let now = try options.wallTime()
            let dueDate = try due.map { try options.date($0, option: "--due") }
            let task = try withTaskErrors {
                try options.tasks().addTask(
                    title: title, description: description, priority: priority, storyPoints: storyPoints,
                    privacy: `private` ? true : nil, due: dueDate, everyDays: every, once: once, now: now)
            }
            if json { return try TaskRowJSON.printKeepingReplayMembers(task, now: now) }
            CommandIO.write(task.taskID.description + "\n")
        }
    }
}
