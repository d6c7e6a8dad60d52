import CanonicalJSON
import Foundation
import GRDB
import RedoApp
import RedoProtocol
import TandemTesting
import TaskStore
import Testing

/// The kept projection must equal a fresh full replay after every operation (issue 12 item 6):
/// local edits, nodes of another device arriving late and out of order (pending, then accepted),
/// and nodes that name a parent in another task (rejected).
@Suite struct TaskProjectionTests {
    /// A seeded run of random operations; after each, the editor's state is compared with a
    /// fresh replay of every stored node, read and verified again by a new log on the same file.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func stateEqualsAFreshFullReplayAfterEveryRandomOperation(seed: UInt64) throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        var random = SeededRandom(seed: seed)
        let second = try TemporaryProfile()
        defer { second.remove() }
        let device = TaskEditor(
            log: try TaskLog(writer: DatabaseQueue()), identity: try ProfileIdentity.loadOrCreate(in: second.url))
        var run = RandomTaskRun(editor: try profile.editor(), device: device, random: SeededRandom(seed: seed &+ 1000))
        for step in 0..<70 {
            try run.step(Int.random(in: 0..<100, using: &random))
            if step % 10 == 9 { run.editor = try profile.editor() }
            let reported = try run.editor.state()
            let fresh = try TaskLog(path: profile.databasePath).validNodes(validator: NodeValidator())
            let replayed = Replayer.replay(fresh.shuffled(using: &random))
            #expect(reported.jsonValue == replayed.jsonValue, "seed \(seed) step \(step)")
            #expect(try run.editor.log.liveTaskIDs() == replayed.tasks.map(\.taskID), "seed \(seed) step \(step)")
            #expect(try run.editor.liveTasks() == replayed.tasks, "seed \(seed) step \(step)")
            #expect(
                TaskLog.liveSummaries(readingAt: profile.databasePath) == replayed.tasks.map(TaskSummary.init),
                "seed \(seed) step \(step)")
            #expect(
                try run.editor.liveSummaries() == replayed.tasks.map(TaskSummary.init), "seed \(seed) step \(step)")
            for task in replayed.tasks {
                #expect(try run.editor.task(task.taskID) == task, "seed \(seed) step \(step)")
            }
        }
        let final = try run.editor.state()
        #expect(!final.tasks.isEmpty)
        #expect(run.deliveredOutOfOrder && run.crossTaskNodes > 0, "the run exercised pending and rejected nodes")
    }

    @Test func aProjectionOlderThanTheLogIsNotUsed() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let start = try wall("2025-10-27T09:00:00.000Z")
        _ = try editor.addTask(title: "Kept", now: start)
        // Given a node stored by a process that knows nothing of projections (plain SQL insert of
        // a valid node made elsewhere)
        let other = try TemporaryProfile()
        defer { other.remove() }
        let foreign = try other.editor().addTask(title: "Inserted by hand", now: start)
        let texts = try other.editor().log.storedTexts()
        let raw = try DatabaseQueue(path: profile.databasePath)
        try raw.write { db in
            for text in texts {
                let node = try NodeValidator().validate(bytes: text)
                try db.execute(
                    sql: "INSERT INTO node (id, taskId, lamport, wall, json) VALUES (?, ?, ?, ?, ?)",
                    arguments: [
                        node.id.description, node.taskID.description, node.lamport, node.wall.description, Data(text),
                    ])
            }
        }
        try raw.close()
        // Then the read-only read does not answer from the stale projection (issue 49 item 2)
        #expect(TaskLog.liveSummaries(readingAt: profile.databasePath) == nil)
        // And the state includes it, checked in full and then marked verified
        let state = try profile.editor().state()
        #expect(
            TaskLog.liveSummaries(readingAt: profile.databasePath)?.map(\.title).sorted() == [
                "Inserted by hand", "Kept",
            ])
        #expect(state.tasks.map(\.title).sorted() == ["Inserted by hand", "Kept"])
        #expect(state.tasks.contains { $0.taskID == foreign.taskID })
        let check = try DatabaseQueue(path: profile.databasePath)
        let unverified = try check.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM node WHERE verified = 0")
        }
        #expect(unverified == 0)
        try check.close()
    }

    @Test func aDamagedProjectionIsRebuiltFromTheLog() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let task = try editor.addTask(title: "Survives", now: try wall("2025-10-27T09:00:00.000Z"))
        let raw = try DatabaseQueue(path: profile.databasePath)
        try raw.write { db in try db.execute(sql: "UPDATE projection_task SET state = x'5b5d'") }
        try raw.close()
        #expect(try profile.editor().state().tasks == [task])
    }

    /// The tasks-only read (issue 29) meets a damaged row as the full read does: it replays the
    /// log and gives the same tasks, and the rebuilt projection serves the next read.
    @Test func theTasksOnlyReadRebuildsADamagedProjection() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let start = try wall("2025-10-27T09:00:00.000Z")
        let kept = try editor.addTask(title: "Survives", now: start)
        let gone = try editor.addTask(title: "Deleted", now: start)
        try editor.delete(gone.taskID.description, now: start)
        let raw = try DatabaseQueue(path: profile.databasePath)
        try raw.write { db in try db.execute(sql: "UPDATE projection_task SET state = x'5b5d' WHERE live = 1") }
        try raw.close()
        #expect(try profile.editor().liveTasks() == [kept])
        #expect(try profile.editor().liveTasks() == profile.editor().state().tasks)
    }

    /// An append rewrites only the rows of the tasks it touches (issue 12 item 6): a damaged row of
    /// another task is left as it is by the append, and the next full read rebuilds it.
    @Test func anAppendRewritesOnlyTheTasksItTouches() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let start = try wall("2025-10-27T09:00:00.000Z")
        let first = try editor.addTask(title: "First", now: start)
        let raw = try DatabaseQueue(path: profile.databasePath)
        try raw.write { db in
            try db.execute(
                sql: "UPDATE projection_task SET state = x'5b5d' WHERE taskId = ?",
                arguments: [first.taskID.description])
        }
        let second = try profile.editor().addTask(title: "Second", now: start)
        let damaged = try raw.read { db in
            try Data.fetchOne(
                db, sql: "SELECT state FROM projection_task WHERE taskId = ?", arguments: [first.taskID.description])
        }
        #expect(damaged == Data([0x5b, 0x5d]))
        #expect(
            try profile.editor().state().tasks.sorted { $0.taskID < $1.taskID }
                == [first, second].sorted { $0.taskID < $1.taskID })
        try raw.close()
    }
}

/// Random operations on one profile's editor, plus a second device whose nodes are delivered
/// late, in random batches and random order.
struct RandomTaskRun {
    var editor: TaskEditor
    var random: SeededRandom
    let device: TaskEditor
    var undelivered: [RedoNode] = []
    var deliveredOutOfOrder = false
    var crossTaskNodes = 0
    var clock: Int64 = 1_761_555_600_000

    init(editor: TaskEditor, device: TaskEditor, random: SeededRandom) {
        self.editor = editor
        self.device = device
        self.random = random
    }

    mutating func now() throws -> WallTime {
        clock += Int64.random(in: 1...3_600_000, using: &random)
        return try #require(WallTime(millisecondsSinceEpoch: clock))
    }

    mutating func pick(_ tasks: [RedoTask]) -> RedoTask? {
        tasks.isEmpty ? nil : tasks[Int.random(in: 0..<tasks.count, using: &random)]
    }

    mutating func step(_ roll: Int) throws {
        let live = try editor.state().tasks
        let open = live.filter { $0.currentTodo != nil }
        switch roll {
        case 0..<20: _ = try editor.addTask(title: "task \(roll)", priority: Int64(roll % 5 + 1), now: try now())
        case 20..<30: if let task = pick(open) { _ = try editor.complete(task.taskID.description, now: try now()) }
        case 30..<37:
            if let task = pick(open) {
                let until = try now().adding(days: 2) ?? (try now())
                _ = try editor.snooze(task.taskID.description, until: until, now: try now())
            }
        case 37..<47:
            if let task = pick(live) { _ = try editor.edit(task.taskID.description, title: "t\(roll)", now: try now()) }
        case 47..<53:
            if let task = pick(live) {
                _ = try editor.setArchived(task.taskID.description, roll % 2 == 0, now: try now())
            }
        case 53..<57: if let task = pick(live) { try editor.delete(task.taskID.description, now: try now()) }
        case 57..<75: try deviceEdit(roll)
        case 75..<92: try deliver()
        default: try crossTaskNode()
        }
    }

    /// The second device edits its own copy; its new nodes wait to be delivered.
    mutating func deviceEdit(_ roll: Int) throws {
        let before = Set(try device.log.validNodes().map(\.id))
        let tasks = try device.state().tasks
        if roll < 63 || tasks.isEmpty {
            _ = try device.addTask(title: "remote \(roll)", now: try now())
        } else if let task = pick(tasks.filter { $0.currentTodo != nil }) {
            _ = try device.complete(task.taskID.description, now: try now())
        } else if let task = pick(tasks) {
            _ = try device.edit(task.taskID.description, priority: Int64(roll % 5 + 1), now: try now())
        }
        undelivered += try device.log.validNodes().filter { !before.contains($0.id) }
    }

    /// A random batch of the second device's nodes, in random order (children before parents too).
    mutating func deliver() throws {
        guard !undelivered.isEmpty else { return }
        undelivered.shuffle(using: &random)
        let count = Int.random(in: 1...undelivered.count, using: &random)
        let batch = Array(undelivered.prefix(count))
        undelivered.removeFirst(count)
        let ids = Set(batch.map(\.id))
        if batch.contains(where: { node in node.parents.contains { !ids.contains($0) } }) { deliveredOutOfOrder = true }
        for node in batch { try editor.log.append([node]) }
    }

    /// A node of one task naming a node of another task as its parent: rejected by replay.
    mutating func crossTaskNode() throws {
        let nodes = try editor.log.validNodes()
        guard let parent = nodes.randomElement(using: &random),
            let other = Set(nodes.map(\.taskID)).subtracting([parent.taskID]).sorted().first
        else { return }
        let payload = try NodePayload.update(TaskFieldChanges(title: "stray")).jsonObject()
        let draft = NodeDraft(
            taskID: other, action: .update, payload: payload, parents: [parent.id], lamport: parent.lamport + 1,
            wall: try now(), author: editor.identity.author)
        try editor.log.append([try draft.node(signedWith: editor.identity.key)])
        crossTaskNodes += 1
    }
}
