import ArgumentParser
import CanonicalJSON
import RedoApp
import RedoProtocol
import TandemBasics
import TandemSync

extension TasksCommand {
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "Find and list tasks: active ones by rank (priority × urgency × √storyPoints, spec §10) unless "
                + "the filters say otherwise.")

        @OptionGroup var options: ProfileOptions
        @OptionGroup var query: TaskQueryOptions
        @Option(help: "Start from this saved preset; the other flags narrow it.") var preset: String?

        @Flag(
            help: ArgumentHelp(
                "Print a JSON array of tasks: {taskId, title, priority, dueAt, rank, description, storyPoints, "
                    + "private, frequencyDays, once, createdAt, updatedAt, archived} (docs/cli-json.md)."))
        var json = false

        func run() throws {
            try Self.list(options: options, overrides: try query.overrides(), preset: preset, json: json)
        }

        /// Lists the tasks `overrides` (narrowing `preset`) finds: what `run()` does with the parsed
        /// flags, and what the quick form of `tasks list` runs without parsing them (``QuickCommand``).
        static func list(options: ProfileOptions, overrides: TaskQueryOverrides, preset: String?, json: Bool) throws {
            let now = try options.wallTime()
            let rows: [TaskQueryRow]
            let profile = try options.value
            do { rows = try profile.findTasks(overrides, preset: preset, now: now) } catch {
                throw CLIError(error.description)
            }
            if json { return try RedoFileInput.printCanonical(.array(try rows.map(TaskRowJSON.row))) }
            let clock = options.clock  // one time-zone lookup, not one per row
            let lines = rows.map { row in
                let due = row.due.map { clock.deadline($0.instant) } ?? "-"
                let marks = row.task.archived ? "  [archived]" : row.due == nil ? "  [completed]" : ""
                return "\(row.task.taskID.abbreviated)  p\(row.task.priority)  due \(due)  \(row.task.title)"
                    + marks
            }
            CommandIO.write(lines.isEmpty ? "no matching tasks\n" : lines.joined(separator: "\n") + "\n")
        }
    }
}
