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

    /// The live tasks' summary columns, in ``SummaryColumns``' order, from the v7 index alone.
    static let summarySelect = """
        SELECT taskId, created_by, created, updated, title, description, privacy, story_points, priority,
            frequency_days, archived, due, notes
        FROM projection_task INDEXED BY projection_task_summary WHERE live = 1
        """

    /// The live tasks' summaries from a current projection, sorted by task id; nil when the
    /// projection is not current or a live row's columns do not read back.
    static func currentSummaries(_ db: Database) throws -> [TaskSummary]? {
        guard try isCurrent(db) else { return nil }
        // The index holds every column read here, so the scan never reads a slice.
        let statement = try db.makeStatement(sql: summarySelect)
        let rows = try Row.fetchCursor(statement)
        let columns = SummaryColumns(statement: statement.sqliteStatement)
        var summaries: [TaskSummary] = []
        while try rows.next() != nil {
            guard let summary = columns.summary() else { return nil }
            summaries.append(summary)
        }
        // The index is in the ids' text order, which is the ids' order: the scan is sorted
        // already unless a row was written by hand.
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
}
