import CanonicalJSON
import Foundation
import RedoApp
import RedoProtocol
import TandemBasics
import TandemTesting
import TaskStore

/// A random task log made through the library (seeded): two accounts' keys, every kind of
/// change, and todos completed by "another client" that schedules no next todo.
struct RandomTaskLog {
    let profile: TemporaryProfile
    let mine: TaskEditor
    let theirs: TaskEditor
    let now: WallTime

    static let titles = [
        "Water plants", "Café bill", "Naïve plan", "Call Mom", "Write report", "Gym", "Über ride", "Taxes",
        "Crème brûlée", "Plan garden",
    ]
    static let descriptions = ["", "", "weekly chore", "Ask ÉLODIE", "plan the call", "bring receipts"]
    static let notes = ["done early", "CAFÉ closed", "call again", "plan b"]

    init(seed: UInt64, tasks: Int = 40, changes: Int = 120) throws {
        profile = try TemporaryProfile()
        let random = Locked(SeededRandom(seed: seed))
        let bytes: @Sendable (Int) -> [UInt8] = { count in
            random.withLock { generator in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        }
        let log = try TaskLog(path: profile.databasePath)
        mine = TaskEditor(log: log, identity: try ProfileIdentity.loadOrCreate(in: profile.url), randomBytes: bytes)
        let other = profile.url.appendingPathComponent("other")
        theirs = TaskEditor(log: log, identity: try ProfileIdentity.loadOrCreate(in: other), randomBytes: bytes)

        var generator = random.withLock { SeededRandom(seed: $0.next()) }
        let base: Int64 = 1_772_355_600_000  // 2026-03-01T09:00:00Z
        var clock = base
        func tick() -> WallTime {
            clock += Int64.random(in: 60_000...7_200_000, using: &generator)
            return WallTime(millisecondsSinceEpoch: clock) ?? WallTime(millisecondsSinceEpoch: base)!
        }
        var ids: [String] = []
        for _ in 0..<tasks {
            let editor = Bool.random(using: &generator) ? mine : theirs
            let due = WallTime(
                millisecondsSinceEpoch: base + Int64.random(in: -10...20, using: &generator) * 86_400_000)
            let task = try editor.addTask(
                title: Self.titles.randomElement(using: &generator)!,
                description: Self.descriptions.randomElement(using: &generator),
                priority: Int64.random(in: 1...5, using: &generator),
                storyPoints: Int64.random(in: 0...5, using: &generator),
                privacy: Bool.random(using: &generator) ? true : nil, due: due,
                everyDays: Int64.random(in: 1...14, using: &generator), now: tick())
            ids.append(task.taskID.description)
        }
        for _ in 0..<changes {
            guard let id = ids.randomElement(using: &generator) else { break }
            guard let task = try? mine.task(try requireTaskID(id)) else { continue }
            let editor = Bool.random(using: &generator) ? mine : theirs
            switch Int.random(in: 0..<100, using: &generator) {
            case 0..<30: _ = try? editor.complete(id, now: tick())
            case 30..<45:
                let deadline = WallTime(
                    millisecondsSinceEpoch: base + Int64.random(in: -5...25, using: &generator) * 86_400_000)
                _ = try? editor.edit(
                    id, TaskChange(due: deadline, notes: Self.notes.randomElement(using: &generator)), now: tick())
            case 45..<60:
                _ = try editor.edit(
                    id,
                    TaskChange(
                        title: Self.titles.randomElement(using: &generator),
                        priority: Int64.random(in: 1...5, using: &generator)), now: tick())
            case 60..<70: _ = try editor.setArchived(id, !task.archived, now: tick())
            case 70..<75:
                try editor.delete(id, now: tick())
                ids.removeAll { $0 == id }
            default:
                // Another client completes the todo and schedules nothing: the task is left
                // with no open todo ("completed").
                guard let todo = task.currentTodo else { continue }
                guard let parent = try mine.log.validNodes(of: task.taskID).first(where: { $0.id == task.latestNodeID })
                else {
                    throw FixtureError(description: "latest node of \(id) is missing")
                }
                let payload = try NodePayload.completeTodo(todo: todo.guid, completed: tick(), notes: nil).jsonObject()
                let node = try NodeDraft(
                    taskID: task.taskID, action: .completeTodo, payload: payload, parents: [parent.id],
                    lamport: parent.lamport + 1, wall: tick(), author: theirs.identity.author
                ).node(signedWith: theirs.identity.key)
                try mine.log.append([node])
            }
        }
        now = WallTime(millisecondsSinceEpoch: base + 5 * 86_400_000)!
    }

    func remove() { profile.remove() }
}

struct FixtureError: Error, CustomStringConvertible {
    let description: String
}

func requireTaskID(_ text: String) throws -> TaskID {
    guard let id = TaskID(text) else { throw FixtureError(description: "bad task id \(text)") }
    return id
}
