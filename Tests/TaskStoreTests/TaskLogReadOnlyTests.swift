import Foundation
import GRDB
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
        let read = TaskLog.liveTasks(readingAt: profile.databasePath)
        #expect(read == (try editor.liveTasks()))
        #expect(read?.count == 3)
        #expect(try Data(contentsOf: URL(fileURLWithPath: profile.databasePath)) == before)
    }

    @Test func aMissingFileIsNotCreated() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        #expect(TaskLog.liveTasks(readingAt: profile.databasePath) == nil)
        #expect(!FileManager.default.fileExists(atPath: profile.databasePath))
    }

    @Test func aFileThisBuildHasNotMigratedIsLeftToTheFullOpen() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        // Given a SQLite file without the log's schema
        let empty = try DatabaseQueue(path: profile.databasePath)
        try empty.write { db in try db.execute(sql: "CREATE TABLE unrelated (x)") }
        try empty.close()
        #expect(TaskLog.liveTasks(readingAt: profile.databasePath) == nil)
        // Then the full open migrates it, and the read-only read answers
        let editor = try profile.editor()
        _ = try editor.addTask(title: "After the migration", now: try wall("2025-10-27T09:00:00.000Z"))
        #expect(TaskLog.liveTasks(readingAt: profile.databasePath)?.map(\.title) == ["After the migration"])
    }

    @Test func aDamagedProjectionRowIsLeftToTheFullOpen() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        _ = try profile.editor().addTask(title: "Kept", now: try wall("2025-10-27T09:00:00.000Z"))
        let raw = try DatabaseQueue(path: profile.databasePath)
        try raw.write { db in try db.execute(sql: "UPDATE projection_task SET state = x'7b'") }
        try raw.close()
        #expect(TaskLog.liveTasks(readingAt: profile.databasePath) == nil)
        #expect(try profile.editor().liveTasks().map(\.title) == ["Kept"])
    }
}
