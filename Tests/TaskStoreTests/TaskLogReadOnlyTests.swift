import Foundation
import GRDB
import RedoApp
import TaskStore
import Testing

/// `tandem tasks list` reads the live tasks over one read-only connection, without the migrator
/// (issue 49 item 2); whatever that read cannot answer from must give nil, so the caller opens the
/// log fully, and the read must never change the file.
@Suite struct TaskLogReadOnlyTests {
    @Test func aCurrentLogReadsAsTheOpenedLogAndStaysUnchanged() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let start = try wall("2025-10-27T09:00:00.000Z")
        for title in ["Water plants", "Taxes", "Call mum"] { _ = try editor.addTask(title: title, now: start) }
        let before = try Data(contentsOf: URL(fileURLWithPath: profile.databasePath))
        let read = TaskLog.liveSummaries(readingAt: profile.databasePath)
        #expect(read == (try editor.liveTasks().map(TaskSummary.init)))
        #expect(read?.count == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: profile.databasePath)) == before)
    }

    @Test func aMissingFileIsNotCreated() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        #expect(TaskLog.liveSummaries(readingAt: profile.databasePath) == nil)
        #expect(!FileManager.default.fileExists(atPath: profile.databasePath))
    }

    @Test func aFileThisBuildHasNotMigratedIsLeftToTheFullOpen() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        // Given a SQLite file without the log's schema
        let empty = try DatabaseQueue(path: profile.databasePath)
        try empty.write { db in try db.execute(sql: "CREATE TABLE unrelated (x)") }
        try empty.close()
        #expect(TaskLog.liveSummaries(readingAt: profile.databasePath) == nil)
        // Then the full open migrates it, and the read-only read answers
        let editor = try profile.editor()
        _ = try editor.addTask(title: "After the migration", now: try wall("2025-10-27T09:00:00.000Z"))
        #expect(TaskLog.liveSummaries(readingAt: profile.databasePath)?.map(\.title) == ["After the migration"])
    }

    @Test func aDamagedSliceLeavesTheSummaryColumnsToAnswerAndIsRebuiltByTheFullOpen() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        _ = try profile.editor().addTask(title: "Kept", now: try wall("2025-10-27T09:00:00.000Z"))
        let raw = try DatabaseQueue(path: profile.databasePath)
        try raw.write { db in try db.execute(sql: "UPDATE projection_task SET state = x'7b'") }
        try raw.close()
        // The list reads only the columns, which still hold the task
        #expect(TaskLog.liveSummaries(readingAt: profile.databasePath)?.map(\.title) == ["Kept"])
        // What reads the slice replays the log instead, and writes the slice again
        #expect(try profile.editor().liveTasks().map(\.title) == ["Kept"])
        let check = try DatabaseQueue(path: profile.databasePath)
        let state = try check.read { db in try Data.fetchOne(db, sql: "SELECT state FROM projection_task") }
        try check.close()
        #expect(state.map(Array.init) != [0x7B])
        #expect(try profile.editor().state().tasks.map(\.title) == ["Kept"])
    }

    @Test func rowsWrittenWithoutTheSummaryColumnsAreRebuilt() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let start = try wall("2025-10-27T09:00:00.000Z")
        for title in ["Water plants", "Taxes"] { _ = try editor.addTask(title: title, now: start) }
        let expected = try editor.liveTasks().map(TaskSummary.init)
        // Given live rows as a build before the v6 migration rewrote them: slices without columns
        let raw = try DatabaseQueue(path: profile.databasePath)
        try raw.write { db in
            try db.execute(sql: "UPDATE projection_task SET title = NULL, created_by = NULL, due = NULL, notes = NULL")
        }
        try raw.close()
        // Then the read-only read does not answer, and the opened log answers from its slices
        #expect(TaskLog.liveSummaries(readingAt: profile.databasePath) == nil)
        #expect(try profile.editor().liveSummaries() == expected)
        // And it rewrote the rows: the read-only read answers again
        #expect(TaskLog.liveSummaries(readingAt: profile.databasePath) == expected)
    }

    @Test func summaryColumnsOutOfRangeAreNotTrusted() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        _ = try profile.editor().addTask(title: "Kept", now: try wall("2025-10-27T09:00:00.000Z"))
        for damage in [
            "privacy = 2", "created = 'yesterday'", "notes = '[1]'", "notes = 'not json'", "due = 1e300",
            "created_by = 'nobody'", "title = X'41'", "description = NULL", "story_points = 1.5",
        ] {
            let raw = try DatabaseQueue(path: profile.databasePath)
            try raw.write { db in try db.execute(sql: "UPDATE projection_task SET \(damage)") }
            try raw.close()
            #expect(TaskLog.liveSummaries(readingAt: profile.databasePath) == nil, "\(damage)")
            #expect(try profile.editor().liveSummaries().map(\.title) == ["Kept"], "\(damage)")
        }
    }
}
