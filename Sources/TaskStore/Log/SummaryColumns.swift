import CanonicalJSON
import GRDB
import GRDBSQLite
import RedoApp
import RedoProtocol

/// One row of ``TaskLog/currentSummaries(_:)``, read from the statement's columns through
/// SQLite's C API (issue 49 item 2: decoding each column through GRDB's generic `DatabaseValue`
/// path cost more per row than SQLite's scan). Column order is the query's.
struct SummaryColumns {
    let statement: SQLiteStatement

    /// The current row's summary; nil when a column is missing, of another type or out of range.
    func summary() -> TaskSummary? {
        guard let taskID = bytes(0).flatMap(TaskID.init(utf8:)), let createdBy = text(1).flatMap(UserID.init),
            let created = time(2), let updated = time(3), let title = text(4), let description = text(5),
            let privacy = flag(6), let storyPoints = integer(7), let priority = integer(8),
            let frequencyDays = integer(9), let archived = flag(10), let notes = notes(12)
        else { return nil }
        var due: WallTime?
        if !isNull(11) {
            guard let time = time(11) else { return nil }
            due = time
        }
        return TaskSummary(
            taskID: taskID, createdBy: createdBy, created: created, updated: updated, title: title,
            description: description, privacy: privacy, storyPoints: storyPoints, priority: priority,
            frequencyDays: frequencyDays, archived: archived, due: due, notes: notes)
    }

    private func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    /// A text column's UTF-8 bytes, valid until the statement moves; nil unless the column is text.
    private func bytes(_ column: Int32) -> UnsafeBufferPointer<UInt8>? {
        guard sqlite3_column_type(statement, column) == SQLITE_TEXT else { return nil }
        // The text first, then its length: SQLite's documented order for a column's bytes.
        let start = sqlite3_column_text(statement, column)
        let count = Int(sqlite3_column_bytes(statement, column))
        guard let start else { return count == 0 ? UnsafeBufferPointer(start: nil, count: 0) : nil }
        return UnsafeBufferPointer(start: start, count: count)
    }

    private func text(_ column: Int32) -> String? {
        bytes(column).map { String(decoding: $0, as: UTF8.self) }
    }

    private func integer(_ column: Int32) -> Int64? {
        guard sqlite3_column_type(statement, column) == SQLITE_INTEGER else { return nil }
        return sqlite3_column_int64(statement, column)
    }

    private func flag(_ column: Int32) -> Bool? {
        switch integer(column) {
        case 0: false
        case 1: true
        default: nil
        }
    }

    private func time(_ column: Int32) -> WallTime? {
        integer(column).flatMap { WallTime(millisecondsSinceEpoch: $0) }
    }

    /// The notes column: NULL for none, else a JSON array of strings.
    private func notes(_ column: Int32) -> [String]? {
        if isNull(column) { return [] }
        guard let bytes = bytes(column),
            let parsed = try? CanonicalJSON.parse(
                Array(bytes), limits: JSONParser.Limits(maxBytes: Int.max, maxDepth: 16)),
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
