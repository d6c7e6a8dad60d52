import Foundation
import RedoApp
import RedoProtocol
import TaskStore
import Testing

@Suite struct TaskIntentsTests {
    @Test func completeFindsATaskByIdOrByAUniqueTitlePrefix() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let intents = TaskIntents(editor: editor)
        let now = try wall("2026-03-01T09:00:00.000Z")
        let water = try intents.addTask(title: "  Water plants ", now: now)
        #expect(water.title == "Water plants")
        let walk = try intents.addTask(title: "Walk the dog", now: now)
        let wash = try intents.addTask(title: "Wash the car", now: now)
        _ = try intents.addTask(title: "Crème brûlée", now: now)

        let later = try wall("2026-03-01T10:00:00.000Z")
        #expect(try intents.completeTask("water", now: later).taskID == water.taskID)
        #expect(try intents.completeTask(String(walk.taskID.description.prefix(6)), now: later).taskID == walk.taskID)
        #expect(try intents.completeTask("CREME", now: later).title == "Crème brûlée")
        #expect(throws: TaskIntentError.ambiguous("wa", titles: try Self.titles(editor, starting: "Wa"))) {
            try intents.completeTask("wa", now: later)
        }
        #expect(throws: TaskIntentError.noTask("mow")) { try intents.completeTask("mow", now: later) }
        #expect(throws: TaskIntentError.emptyTitle) { try intents.addTask(title: " \n", now: later) }
        _ = try editor.setArchived(wash.taskID.description, true, now: later)
        #expect(throws: TaskIntentError.nothingToComplete("Wash the car")) {
            try intents.completeTask("wash", now: later)
        }
        #expect(TaskIntentError.noTask("mow").description == "No task matches “mow”.")
    }

    static func titles(_ editor: TaskEditor, starting prefix: String) throws -> [String] {
        try editor.state().tasks.filter { $0.title.hasPrefix(prefix) && !$0.archived }.sorted { $0.taskID < $1.taskID }
            .map(\.title)
    }

    @Test func dueTodayListsOverdueFirstAndTheSnapshotCountsThem() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let intents = TaskIntents(editor: editor)
        let created = try wall("2026-02-01T09:00:00.000Z")
        let zone = try #require(TimeZone(identifier: "America/New_York"))
        // Now: 2026-03-02 15:00 in New York (20:00 UTC); the day ends at 05:00 UTC on 03-03.
        let now = try wall("2026-03-02T20:00:00.000Z")
        let old = try editor.addTask(title: "Old", priority: 1, due: try wall("2026-02-27T12:00:00.000Z"), now: created)
        let morning = try editor.addTask(title: "Morning", due: try wall("2026-03-02T14:00:00.000Z"), now: created)
        let evening = try editor.addTask(title: "Evening", due: try wall("2026-03-03T03:00:00.000Z"), now: created)
        _ = try editor.addTask(title: "Tomorrow", due: try wall("2026-03-03T06:00:00.000Z"), now: created)
        let archived = try editor.addTask(title: "Archived", due: try wall("2026-03-01T12:00:00.000Z"), now: created)
        _ = try editor.setArchived(archived.taskID.description, true, now: created)

        let items = try intents.dueToday(now: now, timeZone: zone)
        #expect(items.map(\.task.taskID) == [old.taskID, morning.taskID, evening.taskID])
        #expect(items.map(\.overdue) == [true, true, false])

        let snapshot = try intents.snapshot(now: now, timeZone: zone, limit: 2)
        #expect(snapshot.overdue == 2)
        #expect(snapshot.dueToday == 1)
        #expect(snapshot.nextDeadline == "2026-03-03T03:00:00.000Z")
        #expect(snapshot.top.count == 2)
        #expect(snapshot.generated == now.description)
        #expect(snapshot.completedToday == 0)
        #expect(snapshot.currentStreakDays == 0)
        // A completion at 23:30 New York time on 03-01 (04:30 UTC on 03-02) is yesterday's.
        try editor.complete(morning.taskID.description, now: try wall("2026-03-02T04:30:00.000Z"))
        try editor.complete(evening.taskID.description, now: try wall("2026-03-02T19:00:00.000Z"))
        let after = try intents.snapshot(now: now, timeZone: zone)
        #expect(after.completedToday == 1)
        #expect(after.currentStreakDays == 2)
        let decoded = try JSONDecoder().decode(TaskSnapshot.self, from: try JSONEncoder().encode(snapshot))
        #expect(decoded == snapshot)
    }
}
