import Foundation
import GRDB
import RedoProtocol
import TaskStore
import Testing

/// Only validated nodes are appended, so a stored node that no longer validates was damaged on
/// disk: every read reports it as ``TaskStoreError/corruptNode(id:reason:)`` instead of
/// replaying without it (issue 10 item 4).
@Suite struct TaskLogCorruptionTests {
    /// A tasks.sqlite holding one task (two nodes); `damage` runs raw SQL on the file with the
    /// CREATE node's id as its argument. Returns the reopened editor, that id and the task id.
    func damagedProfile(_ profile: TemporaryProfile, _ damage: String) throws -> (TaskEditor, String, String) {
        let editor = try profile.editor()
        let task = try editor.addTask(title: "Water plants", now: try wall("2025-10-27T09:00:00.000Z"))
        let create = try #require(try editor.log.validNodes().first { $0.action == .create })
        let raw = try DatabaseQueue(path: profile.databasePath)
        try raw.write { db in try db.execute(sql: damage, arguments: [create.id.description]) }
        try raw.close()
        return (try profile.editor(), create.id.description, task.taskID.description)
    }

    func corruptID(_ body: () throws -> some Any) throws -> (id: String, reason: String) {
        let error = try #require(throws: TaskStoreError.self) { _ = try body() }
        guard case .corruptNode(let id, let reason) = error else {
            Issue.record("expected corruptNode, got \(error)")
            return ("", "")
        }
        return (id, reason)
    }

    @Test func aNodeWhoseBytesWereChangedIsReportedByReplayAndByEdits() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        // Given a stored node whose JSON lost its signature-covered title
        let retitle =
            "UPDATE node SET json = CAST(replace(CAST(json AS TEXT), 'Water plants', 'Water weeds') AS BLOB) WHERE id = ?"
        let (editor, id, task) = try damagedProfile(profile, retitle)
        // Then replay, the producers' node list and the next edit all name it
        let replayed = try corruptID { try editor.state() }
        #expect(replayed.id == id)
        #expect(replayed.reason.hasPrefix("E_"))
        #expect(try corruptID { try editor.log.validNodes() }.id == id)
        #expect(try corruptID { try editor.complete(task, now: try wall("2025-10-27T10:00:00.000Z")) }.id == id)
        #expect(try corruptID { try editor.history(task) }.id == id)
    }

    @Test func aNodeThatIsNoLongerJSONIsReported() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let (editor, id, _) = try damagedProfile(profile, "UPDATE node SET json = x'7b7d7d' WHERE id = ?")
        #expect(try corruptID { try editor.state() }.id == id)
    }

    @Test func aJSONColumnThatIsNotBytesIsReported() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let (editor, id, _) = try damagedProfile(profile, "UPDATE node SET json = 12 WHERE id = ?")
        let error = try corruptID { try editor.log.replay() }
        #expect(error.id == id && error.reason == "the json column is not a blob")
    }

    @Test func errorsNameTheNodeAndWhatWasWrong() {
        let error = TaskStoreError.corruptNode(id: "sha256:00", reason: "E_HASH_MISMATCH: id does not match")
        #expect(error.description == "stored node sha256:00 is corrupt: E_HASH_MISMATCH: id does not match")
    }
}
