import CanonicalJSON
import Foundation
public import GRDB
public import RedoApp
import RedoProtocol

/// The summary columns of `projection_task` (v6 migration, issue 49 item 2): what a task list
/// filters, ranks, searches and prints of each live task, written with the task's slice in the
/// transaction that changed it, so a list reads columns instead of decoding every slice.
///
/// The columns are a cache like the slices: a row whose columns do not read back (a dead task's
/// row, or one an older build wrote without them) is never an error; the reader answers nil and
/// the caller decodes the slices instead.
extension TaskLog {
    /// Writes one `projection_task` row: the task id, whether it is live, its slice, then the
    /// ``summaryArguments(_:)``.
    static let summaryInsert = """
        INSERT OR REPLACE INTO projection_task (taskId, live, state, created_by, created, updated, title,
            description, privacy, story_points, priority, frequency_days, archived, due, notes)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// The summary columns' values for a live task, in ``summaryInsert``'s order; NULLs for a task
    /// that is not live. Notes are a canonical JSON array of strings, NULL when there are none.
    static func summaryArguments(_ summary: TaskSummary?) throws -> StatementArguments {
        guard let summary else {
            let nulls: [(any DatabaseValueConvertible)?] = Array(repeating: nil, count: 12)
            return StatementArguments(nulls)
        }
        let notes: DatabaseValue =
            summary.notes.isEmpty
            ? .null
            : String(
                decoding: try CanonicalJSON.canonicalBytes(of: .array(summary.notes.map { .string($0) })), as: UTF8.self
            )
            .databaseValue
        return [
            summary.createdBy.description, summary.created.millisecondsSinceEpoch,
            summary.updated.millisecondsSinceEpoch, summary.title, summary.description, summary.privacy,
            summary.storyPoints, summary.priority, summary.frequencyDays, summary.archived,
            summary.due?.millisecondsSinceEpoch, notes,
        ]
    }

    /// The live tasks' summaries from a current projection, sorted by task id; nil when the
    /// projection is not current or a live row's columns do not read back.
    static func currentSummaries(_ db: Database) throws -> [TaskSummary]? {
        guard try isCurrent(db) else { return nil }
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT taskId, created_by, created, updated, title, description, privacy, story_points, priority,
                    frequency_days, archived, due, notes
                FROM projection_task WHERE live = 1
                """)
        var summaries: [TaskSummary] = []
        while let row = try rows.next() {
            guard let summary = summary(row) else { return nil }
            summaries.append(summary)
        }
        // The table's key is the id's canonical text, whose order is the ids' order: the scan
        // is sorted already unless a row was written by hand.
        let ordered = zip(summaries, summaries.dropFirst()).allSatisfy { $0.taskID < $1.taskID }
        return ordered ? summaries : summaries.sorted { $0.taskID < $1.taskID }
    }

    /// The live tasks' summaries (``TaskSummary``, by task id) from the projection's columns.
    /// When they cannot answer (a stale projection, or rows an older build wrote without the
    /// columns), every row is rebuilt once and read again.
    public func liveSummaries() throws -> [TaskSummary] {
        if let summaries = try writer.read(Self.currentSummaries) { return summaries }
        let rebuilt = try writer.write { db in
            _ = try Self.rebuild(db)
            return try Self.currentSummaries(db)
        }
        return try rebuilt ?? liveTasks().map(TaskSummary.init)
    }

    /// ``liveSummaries()`` of the log at `path`, read over one read-only connection without the
    /// migrator or a writer (issue 49 item 2: opening the log costs more than reading 1,000 rows).
    /// Nil when that cannot answer: no file, a schema this build has not fully migrated, a
    /// projection that is not current or a row whose columns do not read back. Then an opened
    /// log's ``liveSummaries()`` migrates, replays and keeps what it rebuilt.
    public static func liveSummaries(readingAt path: String) -> [TaskSummary]? {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        do {
            let reader = try DatabaseQueue(path: path, configuration: configuration)
            return try reader.read { db in
                guard try migrator.hasCompletedMigrations(db) else { return nil }
                return try currentSummaries(db)
            }
        } catch {
            return nil
        }
    }

    /// One row of ``currentSummaries(_:)``; nil when a column is missing or out of range.
    private static func summary(_ row: Row) -> TaskSummary? {
        func value(_ index: Int) -> DatabaseValue { row[index] }
        guard let taskID = text(value(0)).flatMap(TaskID.init), let createdBy = text(value(1)).flatMap(UserID.init),
            let created = time(value(2)), let updated = time(value(3)), let title = text(value(4)),
            let description = text(value(5)), let privacy = flag(value(6)), let storyPoints = integer(value(7)),
            let priority = integer(value(8)), let frequencyDays = integer(value(9)),
            let archived = flag(value(10)), let notes = notes(value(12))
        else { return nil }
        var due: WallTime?
        let dueValue = value(11)
        if !dueValue.isNull {
            guard let time = time(dueValue) else { return nil }
            due = time
        }
        return TaskSummary(
            taskID: taskID, createdBy: createdBy, created: created, updated: updated, title: title,
            description: description, privacy: privacy, storyPoints: storyPoints, priority: priority,
            frequencyDays: frequencyDays, archived: archived, due: due, notes: notes)
    }

    private static func text(_ value: DatabaseValue) -> String? {
        if case .string(let text) = value.storage { return text }
        return nil
    }

    private static func integer(_ value: DatabaseValue) -> Int64? {
        if case .int64(let integer) = value.storage { return integer }
        return nil
    }

    private static func flag(_ value: DatabaseValue) -> Bool? {
        switch integer(value) {
        case 0: false
        case 1: true
        default: nil
        }
    }

    private static func time(_ value: DatabaseValue) -> WallTime? {
        integer(value).flatMap { WallTime(millisecondsSinceEpoch: $0) }
    }

    /// The notes column: NULL for none, else a JSON array of strings.
    private static func notes(_ value: DatabaseValue) -> [String]? {
        if value.isNull { return [] }
        guard let text = text(value),
            let parsed = try? CanonicalJSON.parse(
                Array(text.utf8), limits: JSONParser.Limits(maxBytes: Int.max, maxDepth: 16)),
            let items = parsed.arrayValue
        else { return nil }
        var notes: [String] = []
        for item in items {
            guard let note = item.stringValue else { return nil }
            notes.append(note)
        }
        return notes
    }
}
