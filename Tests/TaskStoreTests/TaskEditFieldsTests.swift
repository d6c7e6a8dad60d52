import CanonicalJSON
import Foundation
import RedoProtocol
import TaskStore
import Testing

@Suite struct TaskEditFieldsTests {
    @Test func addTakesEveryFieldAndLeavesDefaultsOutOfTheCreate() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let now = try wall("2026-03-01T09:00:00.000Z")
        let task = try editor.addTask(
            title: "Plan trip", description: "Book trains", priority: 4, storyPoints: 3, privacy: true,
            due: try wall("2026-03-05T00:00:00.000Z"), everyDays: 30, now: now)
        #expect(task.description == "Book trains")
        #expect(task.storyPoints == 3)
        #expect(task.privacy)
        #expect(task.frequencyDays == 30)
        #expect(task.currentTodo?.deadline == (try wall("2026-03-05T00:00:00.000Z")))
        let plain = try editor.addTask(title: "Plain", now: now)
        let create = try #require(try editor.history(plain.taskID.description).first)
        guard case .create(let created) = create.payload else { throw FixtureError(description: "not a CREATE") }
        #expect(created == TaskFieldChanges(title: "Plain"))
        #expect(throws: TaskStoreError.invalidField(name: "story-points", reason: "must be 0 or more")) {
            try editor.addTask(title: "x", storyPoints: -1, now: now)
        }
    }

    @Test func anEditWritesOneUpdateWithOnlyTheChangedFieldsThenOneSnooze() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let task = try editor.addTask(title: "Report", priority: 3, now: try wall("2026-03-01T09:00:00.000Z"))
        let id = task.taskID.description
        let newDue = try wall("2026-03-20T12:00:00.000Z")
        let edited = try editor.edit(
            id,
            TaskChange(
                title: "Report", description: "Q1 numbers", priority: 5, storyPoints: 1, frequencyDays: 14,
                privacy: true, due: newDue, notes: "asked Ann"),
            now: try wall("2026-03-02T09:00:00.000Z"))
        let nodes = try editor.history(id)
        #expect(nodes.map(\.action) == [.create, .createTodo, .update, .snooze])
        // Title, storyPoints are unchanged, so the UPDATE leaves them out.
        guard case .update(let fields) = nodes[2].payload,
            case .snooze(let todo, let change, let notes) = nodes[3].payload
        else { throw FixtureError(description: "not an UPDATE and a SNOOZE") }
        #expect(fields == TaskFieldChanges(description: "Q1 numbers", privacy: true, priority: 5, frequencyDays: 14))
        #expect(nodes[3].parents == [nodes[2].id])
        #expect(todo == task.currentTodo?.guid)
        #expect(change == .newDeadline(newDue))
        #expect(notes == "asked Ann")
        #expect(edited.description == "Q1 numbers")
        #expect(edited.priority == 5)
        #expect(edited.privacy)
        #expect(edited.frequencyDays == 14)
        #expect(edited.currentTodo?.deadline == newDue)
        #expect(edited.currentTodo?.notes == "asked Ann")
        #expect(edited.updated == (try wall("2026-03-02T09:00:00.000Z")))

        // Notes alone: a SNOOZE to the same deadline, appending.
        let noted = try editor.edit(id, TaskChange(notes: "called back"), now: try wall("2026-03-03T09:00:00.000Z"))
        #expect(noted.currentTodo?.deadline == newDue)
        #expect(noted.currentTodo?.notes == "asked Ann\ncalled back")
        #expect(try editor.history(id).map(\.action).last == .snooze)

        // Nothing different: no node.
        let count = try editor.log.count()
        let same = try editor.edit(
            id, TaskChange(title: "Report", priority: 5), now: try wall("2026-03-04T09:00:00.000Z"))
        #expect(try editor.log.count() == count)
        #expect(same == noted)

        #expect(throws: TaskStoreError.emptyEdit(task: id)) {
            try editor.edit(id, TaskChange(), now: try wall("2026-03-04T09:00:00.000Z"))
        }
        #expect(throws: TaskStoreError.invalidField(name: "every", reason: "must be at least 1 day")) {
            try editor.edit(id, TaskChange(frequencyDays: 0), now: try wall("2026-03-04T09:00:00.000Z"))
        }
        #expect(throws: TaskStoreError.invalidField(name: "notes", reason: "must not be empty")) {
            try editor.edit(id, TaskChange(notes: ""), now: try wall("2026-03-04T09:00:00.000Z"))
        }
    }

    @Test func theProjectionKeepsUpdatedEqualToAFreshReplay() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let task = try editor.addTask(title: "A", now: try wall("2026-03-01T09:00:00.000Z"))
        try editor.complete(task.taskID.description, now: try wall("2026-03-05T09:00:00.000Z"))
        let fromProjection = try editor.state().tasks
        let replayed = Replayer.replay(try editor.log.validNodes()).tasks
        #expect(fromProjection == replayed)
        #expect(fromProjection.first?.updated == (try wall("2026-03-05T09:00:00.000Z")))
    }
}
