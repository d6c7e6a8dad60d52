import Foundation
import GRDB
import RedoApp
import Testing

@testable import TaskStore

/// The v7 index that `tandem tasks list` scans (issue 49 item 2): it must hold every column the
/// list reads, so the scan never reads the slices beside them, and a log made before it must gain
/// it without losing what the list shows.
@Suite struct TaskSummaryIndexTests {
    @Test func theListScanReadsTheIndexAlone() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        _ = try profile.editor().addTask(title: "Water plants", now: try wall("2025-10-27T09:00:00.000Z"))
        let raw = try DatabaseQueue(path: profile.databasePath)
        defer { try? raw.close() }
        // A plan row is (id, parent, notused, detail).
        let details = try raw.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + TaskLog.summarySelect).map { $0[3] as String }
        }
        #expect(details == ["SCAN projection_task USING COVERING INDEX projection_task_summary"])
    }

    @Test func aLogMadeBeforeTheIndexGainsItAndListsTheSame() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let start = try wall("2025-10-27T09:00:00.000Z")
        for title in ["Water plants", "Taxes", "Call Ada"] { _ = try editor.addTask(title: title, now: start) }
        let expected = try editor.liveTasks().map(TaskSummary.init)
        // Given the file as the build before v7 left it: no index, no record of the migration
        let raw = try DatabaseQueue(path: profile.databasePath)
        try raw.write { db in
            try db.execute(sql: "DROP INDEX projection_task_summary")
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v7 summary index'")
        }
        try raw.close()
        // Then the read-only read leaves it to the full open, which adds the index
        #expect(TaskLog.liveSummaries(readingAt: profile.databasePath) == nil)
        #expect(try profile.editor().liveSummaries() == expected)
        #expect(TaskLog.liveSummaries(readingAt: profile.databasePath) == expected)
    }
}
