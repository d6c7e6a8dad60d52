import Foundation
import RedoProtocol
import TandemTesting
import TaskStore
import Testing

/// A profile directory under the system temp dir, removed by the test.
struct TemporaryProfile {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("taskstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    var databasePath: String { url.appendingPathComponent("tasks.sqlite").path }

    func editor() throws -> TaskEditor {
        TaskEditor(log: try TaskLog(path: databasePath), identity: try ProfileIdentity.loadOrCreate(in: url))
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}

extension ProfileIdentity {
    /// The identity files where a Tandem profile keeps them (`identity.key`, `device.id`).
    static func loadOrCreate(in directory: URL) throws -> ProfileIdentity {
        try loadOrCreate(
            keyFile: directory.appendingPathComponent("identity.key"),
            deviceFile: directory.appendingPathComponent("device.id"))
    }
}

func wall(_ text: String) throws -> WallTime { try #require(WallTime(text)) }

@Suite struct ProfileIdentityTests {
    @Test func createsAPrivateKeyFileAndReloadsTheSameIdentity() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let first = try ProfileIdentity.loadOrCreate(in: profile.url)
        let keyPath = profile.url.appendingPathComponent("identity.key").path
        let permissions = try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o600)
        let second = try ProfileIdentity.loadOrCreate(in: profile.url)
        #expect(first.userID == second.userID)
        #expect(first.deviceID == second.deviceID)
        #expect(first.userID.description == String(first.key.publicKey.description.prefix(32)))
    }

    @Test func refusesAKeyFileReadableByOthers() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        _ = try ProfileIdentity.loadOrCreate(in: profile.url)
        let keyPath = profile.url.appendingPathComponent("identity.key").path
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyPath)
        #expect(throws: TaskStoreError.keyFileTooOpen(path: keyPath, permissions: 0o644)) {
            try ProfileIdentity.loadOrCreate(in: profile.url)
        }
    }

    @Test func refusesAMalformedKeyFile() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let keyURL = profile.url.appendingPathComponent("identity.key")
        #expect(
            FileManager.default.createFile(
                atPath: keyURL.path, contents: Data("not hex\n".utf8), attributes: [.posixPermissions: 0o600]))
        #expect(throws: TaskStoreError.malformedKeyFile(path: keyURL.path)) {
            try ProfileIdentity.loadOrCreate(in: profile.url)
        }
    }
}

@Suite struct TaskLogTests {
    @Test func appendIsIdempotentAndSurvivesReopening() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let task = try editor.addTask(title: "Water plants", now: try wall("2025-10-27T09:00:00.000Z"))
        let nodes = try editor.log.validNodes()
        #expect(nodes.count == 2)
        try editor.log.append(nodes)
        #expect(try editor.log.count() == 2)
        let reopened = try TaskLog(path: profile.databasePath)
        #expect(try reopened.replay().tasks == [task])
    }

    @Test func everyStoredNodeIsSignedAndSyncReady() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let now = try wall("2025-10-27T09:00:00.000Z")
        let task = try editor.addTask(title: "Sign me", priority: 4, now: now)
        try editor.complete(task.taskID.description, now: now)
        let strict = NodeValidator(signaturePolicy: .required)
        for text in try editor.log.storedTexts() {
            #expect(throws: Never.self) { try strict.validate(bytes: text) }
        }
    }

    /// The state the editor reports must equal a full replay of the stored log in any order,
    /// after every single operation (spec §7: state is never stored).
    @Test func stateEqualsFullReplayAfterEveryOperation() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let start = try wall("2025-10-27T09:00:00.000Z")
        var clock = start.millisecondsSinceEpoch
        func tick() throws -> WallTime {
            clock += 60_000
            return try #require(WallTime(millisecondsSinceEpoch: clock))
        }
        let a = try editor.addTask(title: "A", priority: 2, everyDays: 3, now: try tick()).taskID.description
        let b = try editor.addTask(title: "B", due: try wall("2025-11-01T00:00:00.000Z"), now: try tick()).taskID
            .description
        let operations: [() throws -> Void] = [
            { _ = try editor.complete(a, now: try tick()) },
            { _ = try editor.snooze(b, until: try wall("2025-11-03T00:00:00.000Z"), now: try tick()) },
            { _ = try editor.edit(a, title: "A renamed", priority: 5, now: try tick()) },
            { _ = try editor.setArchived(b, true, now: try tick()) },
            { _ = try editor.setArchived(b, false, now: try tick()) },
            { try editor.delete(b, now: try tick()) },
        ]
        var generator = SeededRandom(seed: 20_261_127)
        for operation in operations {
            try operation()
            let reported = try editor.state()
            let fresh = try TaskLog(path: profile.databasePath).validNodes().shuffled(using: &generator)
            let replayed = Replayer.replay(fresh)
            #expect(reported.tasks == replayed.tasks)
            #expect(reported.accepted == replayed.accepted)
            #expect(reported.rejected.isEmpty && reported.pending.isEmpty)
        }
    }
}

@Suite struct TaskEditorTests {
    @Test func completingSchedulesTheNextTodoFromTheCompletionTime() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let created = try wall("2025-10-27T09:00:00.000Z")
        let task = try editor.addTask(title: "Laundry", everyDays: 3, now: created)
        #expect(task.currentTodo?.deadline == created.adding(days: 3))
        let done = try wall("2025-10-28T10:00:00.000Z")
        let after = try editor.complete(String(task.taskID.description.prefix(8)), now: done)
        #expect(after.todos.count == 2)
        #expect(after.todos.first?.completed == done)
        #expect(after.currentTodo?.deadline == done.adding(days: 3))
    }

    @Test func snoozeEditArchiveAndDeleteChangeReplayedState() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let now = try wall("2025-10-27T09:00:00.000Z")
        let id = try editor.addTask(title: "Taxes", priority: 2, now: now).taskID.description
        let later = try wall("2025-12-01T00:00:00.000Z")
        #expect(try editor.snooze(id, until: later, now: now).currentTodo?.deadline == later)
        let edited = try editor.edit(id, title: "File taxes", priority: 5, now: now)
        #expect(edited.title == "File taxes" && edited.priority == 5)
        #expect(try editor.setArchived(id, true, now: now).archived)
        #expect(try editor.setArchived(id, false, now: now).archived == false)
        try editor.delete(id, now: now)
        let state = try editor.state()
        #expect(state.tasks.isEmpty)
        #expect(state.deletedTasks.map(\.description) == [id])
        #expect(try editor.history(id).map(\.action).last == .delete)
    }

    @Test func rejectsBadInputWithNamedErrors() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let now = try wall("2025-10-27T09:00:00.000Z")
        #expect(throws: TaskStoreError.invalidField(name: "priority", reason: "must be 1–5")) {
            try editor.addTask(title: "x", priority: 6, now: now)
        }
        #expect(throws: TaskStoreError.unknownTask("ffff")) { try editor.complete("ffff", now: now) }
        let id = try editor.addTask(title: "x", now: now).taskID.description
        #expect(throws: TaskStoreError.emptyEdit(task: id)) { try editor.edit(id, now: now) }
    }

    @Test func historyListsTheTasksNodesInTotalOrder() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let now = try wall("2025-10-27T09:00:00.000Z")
        let id = try editor.addTask(title: "Log me", now: now).taskID.description
        try editor.edit(id, title: "Logged", now: now)
        let history = try editor.history(id)
        #expect(history.map(\.action) == [.create, .createTodo, .update])
        #expect(history.map(\.lamport) == [1, 2, 3])
    }
}
