public import ArgumentParser
import CanonicalJSON
import Foundation
public import RedoApp
import RedoProtocol
import TandemBasics
import TaskStore

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

extension TaskQuery {
    /// The query as the flags that make it (issue 51 item 7), defaults left out: what
    /// `tasks preset list` shows, readable and typed back as is. Dates are `clock`'s days or
    /// times; a time shown without ` UTC` is local, as `--due-before` reads it.
    func flags(clock: HumanTime) -> String {
        /// Plain words as they are; anything else single-quoted as a POSIX shell reads it back.
        func quoted(_ text: String) -> String {
            let plain =
                !text.isEmpty && !text.hasPrefix("-")
                && text.unicodeScalars.allSatisfy {
                    $0.properties.isAlphabetic || ("0"..."9").contains($0) || "._:-".unicodeScalars.contains($0)
                }
            return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        func date(_ wall: WallTime) -> String {
            quoted(clock.deadline(wall.instant))
        }
        var parts: [String] = []
        if let search, !search.isEmpty { parts.append("--search \(quoted(search))") }
        if status != .active { parts.append("--status \(status.rawValue)") }
        if let priorityMin { parts.append("--priority-min \(priorityMin)") }
        if let priorityMax { parts.append("--priority-max \(priorityMax)") }
        if let dueBefore { parts.append("--due-before \(date(dueBefore))") }
        if let dueAfter { parts.append("--due-after \(date(dueAfter))") }
        if overdue { parts.append("--overdue") }
        if noDue { parts.append("--no-due") }
        if let ownership { parts.append("--\(ownership.rawValue)") }
        if sort != .rank { parts.append("--sort \(sort.rawValue)") }
        if let limit { parts.append("--limit \(limit)") }
        return parts.isEmpty ? "(all active tasks by rank)" : parts.joined(separator: " ")
    }
}

/// The one JSON shape of a task in `tasks list`, `add`, `edit`, `done`, `snooze`, `archive` and
/// `unarchive` (issue 51 item 6, docs/cli-json.md): the task's fields, `dueAt` and `rank` of its
/// current todo (null when it has none, `rank` also for an archived task), and `once` for a
/// task done once. `due`, `created` and `updated` are the names of the last release, kept for
/// one more.
enum TaskRowJSON {
    static func row(_ row: TaskQueryRow) throws -> JSONValue {
        try object(row.task, rank: row.rank)
    }

    /// A task as an edit left it, ranked at `now` as `tasks list` would rank it.
    static func task(_ task: RedoTask, now: WallTime) throws -> JSONValue {
        let summary = TaskSummary(task)
        return try object(summary, rank: summary.rank(now: now))
    }

    private static func object(_ task: TaskSummary, rank: Double?) throws -> JSONValue {
        let dueAt: JSONValue = task.due.map { .string($0.description) } ?? .null
        return .object(
            try JSONObject([
                ("taskId", .string(task.taskID.description)),
                ("title", .string(task.title)),
                ("priority", .number(Double(task.priority))),
                ("dueAt", dueAt),
                ("rank", rank.map { .number($0) } ?? .null),
                ("description", .string(task.description)),
                ("storyPoints", .number(Double(task.storyPoints))),
                ("private", .bool(task.privacy)),
                ("frequencyDays", .number(Double(task.frequencyDays))),
                ("once", .bool(task.isOneTime)),
                ("createdAt", .string(task.created.description)),
                ("updatedAt", .string(task.updated.description)),
                ("archived", .bool(task.archived)),
                ("due", dueAt),
                ("created", .string(task.created.description)),
                ("updated", .string(task.updated.description)),
            ]))
    }

    /// Prints `task` in this shape.
    static func print(_ task: RedoTask, now: WallTime) throws {
        try RedoFileInput.printCanonical(self.task(task, now: now))
    }

    /// The replay schema's members `tasks add` and `tasks edit` printed before issue 51, kept
    /// beside the task shape for one release (docs/cli-json.md).
    static let replayMembersKept = ["privacy", "createdBy", "todoTasks", "currentTodo", "heads", "latestNodeId"]

    /// ``print(_:now:)`` with ``replayMembersKept`` from the task's replay schema.
    static func printKeepingReplayMembers(_ task: RedoTask, now: WallTime) throws {
        guard case .object(let shape) = try self.task(task, now: now), case .object(let replay) = task.jsonValue else {
            return try print(task, now: now)
        }
        var members = shape.keys.compactMap { key in shape[key].map { (key, $0) } }
        members += replayMembersKept.compactMap { key in replay[key].map { (key, $0) } }
        try RedoFileInput.printCanonical(.object(try JSONObject(members)))
    }
}

/// `--time-zone TZ`: the zone days are counted in.
struct TimeZoneOption: ParsableArguments {
    @Option(help: "Time zone of the days (an IANA name such as Europe/Berlin). Default: the local zone ($TZ).")
    var timeZone: String?

    func value() throws -> TimeZone {
        guard let timeZone else { return .current }
        guard let zone = TimeZone(identifier: timeZone) else {
            throw CLIError("--time-zone '\(timeZone)' is not a known time zone (e.g. UTC, Europe/Berlin)")
        }
        return zone
    }
}
