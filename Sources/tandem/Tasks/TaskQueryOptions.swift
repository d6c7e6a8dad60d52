public import ArgumentParser
import CanonicalJSON
import Foundation
public import RedoApp
import RedoProtocol
import TandemBasics

extension TaskQuery.Status: ExpressibleByArgument {}
extension TaskQuery.SortKey: ExpressibleByArgument {}
extension TaskQuery.Ownership: EnumerableFlag {}

/// The find-and-filter flags of `tasks list` and `tasks preset save` (issue 27 item 2).
struct TaskQueryOptions: ParsableArguments {
    @Option(help: "Words that must all occur in the title, description or notes (any case, any accents).")
    var search: String?

    @Option(help: "active | completed | archived | all. Default active.")
    var status: TaskQuery.Status?

    @Option(help: "Lowest priority, \(RedoField.priority.boundsText).") var priorityMin: Int64?
    @Option(help: "Highest priority, \(RedoField.priority.boundsText).") var priorityMax: Int64?

    @Option(help: "Only todos due before this instant: \(DateArgument.accepted).") var dueBefore: String?
    @Option(help: "Only todos due after this instant: \(DateArgument.accepted).") var dueAfter: String?

    @Flag(help: "Only tasks whose current todo is past its deadline.") var overdue = false
    @Flag(help: "Only tasks with no open todo.") var noDue = false

    @Flag(help: "Only tasks created by this account (--mine) or shared with it (--shared).")
    var ownership: TaskQuery.Ownership?

    @Option(help: "rank | due | priority | created | updated | title. Default rank.")
    var sort: TaskQuery.SortKey?

    @Option(help: "At most this many tasks.") var limit: Int?

    /// What these flags set, to stand alone or narrow a preset.
    func overrides() throws -> TaskQueryOverrides {
        let overrides = TaskQueryOverrides(
            search: search, status: status, priorityMin: priorityMin, priorityMax: priorityMax,
            dueBefore: try dueBefore.map { try ProfileOptions.wallTime($0, option: "--due-before") },
            dueAfter: try dueAfter.map { try ProfileOptions.wallTime($0, option: "--due-after") },
            overdue: overdue, noDue: noDue, ownership: ownership, sort: sort, limit: limit)
        _ = try checked(overrides.query)
        return overrides
    }

    /// The query, or the one-line reason it cannot run.
    func checked(_ query: TaskQuery) throws -> TaskQuery {
        do { return try query.validated() } catch { throw CLIError(error.description) }
    }
}

/// The JSON row of a listed task: today's `taskId, title, priority, due, rank` and the task's
/// other fields (issue 27 item 2). `rank` and `due` are null for a task with no open todo, `rank`
/// for an archived one.
enum TaskRowJSON {
    static func row(_ row: TaskQueryRow) throws -> JSONValue {
        let task = row.task
        return .object(
            try JSONObject([
                ("taskId", .string(task.taskID.description)),
                ("title", .string(task.title)),
                ("priority", .number(Double(task.priority))),
                ("due", row.due.map { .string($0.description) } ?? .null),
                ("rank", row.rank.map { .number($0) } ?? .null),
                ("description", .string(task.description)),
                ("storyPoints", .number(Double(task.storyPoints))),
                ("private", .bool(task.privacy)),
                ("frequencyDays", .number(Double(task.frequencyDays))),
                ("created", .string(task.created.description)),
                ("updated", .string(task.updated.description)),
                ("archived", .bool(task.archived)),
            ]))
    }
}

/// `--time-zone TZ`: the zone days are counted in.
struct TimeZoneOption: ParsableArguments {
    @Option(help: "Time zone of the days (an IANA name such as Europe/Berlin). Default UTC.")
    var timeZone: String = "UTC"

    func value() throws -> TimeZone {
        guard let zone = TimeZone(identifier: timeZone) else {
            throw CLIError("--time-zone '\(timeZone)' is not a known time zone (e.g. UTC, Europe/Berlin)")
        }
        return zone
    }
}
