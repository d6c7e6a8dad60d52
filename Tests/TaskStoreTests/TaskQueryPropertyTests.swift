import CanonicalJSON
import Foundation
import RedoApp
import RedoProtocol
import TandemTesting
import TaskStore
import Testing

/// Issue 27's property: a query over replayed state equals a brute-force filter of what
/// `tasks show --json` prints (the replay schema), written here from the JSON alone.
@Suite struct TaskQueryPropertyTests {
    @Test("query equals a brute-force filter of the replayed JSON", arguments: [1, 2, 3, 4] as [UInt64])
    func queryEqualsBruteForce(seed: UInt64) throws {
        let fixture = try RandomTaskLog(seed: seed)
        defer { fixture.remove() }
        let state = try fixture.mine.log.replay()
        #expect(state.tasks.count > 10)
        let walls = try Self.liveWalls(fixture.mine.log.validNodes(), state: state)
        let context = TaskQueryContext(now: fixture.now, accountKeys: [fixture.mine.identity.userID])
        let shown = state.tasks.map { Shown(json: $0.jsonValue, updated: walls[$0.taskID.description] ?? 0) }
        // The projection's summary columns, as `tandem tasks list` reads them (issue 49 item 2)
        let columns = try #require(TaskLog.liveSummaries(readingAt: fixture.profile.databasePath))
        var generator = SeededRandom(seed: seed &* 7919)
        var nonEmpty = 0
        for _ in 0..<300 {
            let query = Self.randomQuery(&generator, base: 1_772_355_600_000)
            let actual = query.run(on: state.tasks, context: context).map(\.task.taskID.description)
            let expected = Self.bruteForce(
                query, shown, now: fixture.now.millisecondsSinceEpoch, me: context.accountKeys)
            #expect(actual == expected, "seed \(seed): \(query)")
            #expect(query.run(on: columns, context: context) == query.run(on: state.tasks, context: context))
            if !actual.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 50)
    }

    /// The latest wall time of each task's live nodes: valid nodes neither pruned nor tombstoned.
    static func liveWalls(_ nodes: [RedoNode], state: ReplayResult) -> [String: Int64] {
        let gone = Set(
            state.pruned.map(\.description) + state.tombstones.map(\.description) + state.rejected.map(\.id)
                + state.pending.map(\.id))
        var walls: [String: Int64] = [:]
        for node in nodes where !gone.contains(node.id.description) {
            walls[node.taskID.description] = max(
                walls[node.taskID.description] ?? .min, node.wall.millisecondsSinceEpoch)
        }
        return walls
    }

    struct Shown {
        let json: JSONValue
        let updated: Int64

        var id: String { json["taskId"]?.stringValue ?? "" }
        var title: String { json["title"]?.stringValue ?? "" }
        var priority: Int64 { Int64(json["priority"]?.numberValue ?? 0) }
        var archived: Bool { json["archived"]?.boolValue ?? false }
        var todos: [JSONValue] { json["todoTasks"]?.arrayValue ?? [] }
        var currentDeadline: Int64? {
            guard let current = json["currentTodo"]?.stringValue,
                let todo = todos.first(where: { $0["guid"]?.stringValue == current }),
                let text = todo["deadline"]?.stringValue
            else { return nil }
            return WallTime(text)?.millisecondsSinceEpoch
        }
        var created: Int64 { json["created"]?.stringValue.flatMap(WallTime.init)?.millisecondsSinceEpoch ?? 0 }
        var text: String {
            ([title, json["description"]?.stringValue ?? ""] + todos.compactMap { $0["notes"]?.stringValue })
                .joined(separator: "\n")
        }
        func rank(now: Int64) -> Double? {
            guard !archived, let deadline = currentDeadline else { return nil }
            let days = Double(deadline - now) / 86_400_000
            let points = json["storyPoints"]?.numberValue ?? 0
            return Double(priority) * max(0.1, 1 + 10 / (1 + exp(0.4 * days))) * points.squareRoot()
        }
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    static func bruteForce(_ query: TaskQuery, _ shown: [Shown], now: Int64, me: Set<UserID>) -> [String] {
        let words = (query.search ?? "").split(whereSeparator: \.isWhitespace).map { fold(String($0)) }
        var kept = shown.filter { task in
            let open = task.currentDeadline
            switch query.status {
            case .active: guard !task.archived && open != nil else { return false }
            case .completed: guard !task.archived && open == nil else { return false }
            case .archived: guard task.archived else { return false }
            case .all: break
            }
            if let low = query.priorityMin, task.priority < low { return false }
            if let high = query.priorityMax, task.priority > high { return false }
            if let ownership = query.ownership {
                let creator = task.json["createdBy"]?.stringValue ?? ""
                let mine = me.contains { $0.description == creator }
                if mine != (ownership == .mine) { return false }
            }
            if query.noDue && open != nil { return false }
            if let before = query.dueBefore?.millisecondsSinceEpoch, !(open.map { $0 < before } ?? false) {
                return false
            }
            if let after = query.dueAfter?.millisecondsSinceEpoch, !(open.map { $0 > after } ?? false) { return false }
            if query.overdue, !(open.map { $0 < now } ?? false) { return false }
            let haystack = fold(task.text)
            return words.allSatisfy { haystack.range(of: $0) != nil }
        }
        kept.sort { a, b in
            func later<T: Comparable>(_ x: T?, _ y: T?, descending: Bool) -> Bool? {
                if x == y { return nil }
                guard let x else { return false }
                guard let y else { return true }
                return descending ? x > y : x < y
            }
            let decided: Bool? =
                switch query.sort {
                case .rank: later(a.rank(now: now), b.rank(now: now), descending: true)
                case .due: later(a.currentDeadline, b.currentDeadline, descending: false)
                case .priority: later(a.priority, b.priority, descending: true)
                case .created: later(a.created, b.created, descending: true)
                case .updated: later(a.updated, b.updated, descending: true)
                case .title: later(fold(a.title), fold(b.title), descending: false)
                }
            return decided ?? (a.id < b.id)
        }
        let ids = kept.map(\.id)
        return query.limit.map { Array(ids.prefix($0)) } ?? ids
    }

    static func randomQuery(_ generator: inout SeededRandom, base: Int64) -> TaskQuery {
        func maybe<T>(_ value: @autoclosure () -> T, _ percent: Int = 30) -> T? {
            Int.random(in: 0..<100, using: &generator) < percent ? value() : nil
        }
        let searches = ["cafe", "NAIVE plan", "plan", "call", "élodie", "CREME brulee", "zzz", "done", "weekly chore"]
        let low = Int64.random(in: 1...5, using: &generator)
        var query = TaskQuery(
            search: maybe(searches.randomElement(using: &generator)!),
            status: TaskQuery.Status.allCases.randomElement(using: &generator)!,
            priorityMin: maybe(low), priorityMax: maybe(Int64.random(in: low...5, using: &generator)),
            dueBefore: maybe(
                WallTime(millisecondsSinceEpoch: base + Int64.random(in: -5...25, using: &generator) * 86_400_000)!),
            dueAfter: maybe(
                WallTime(millisecondsSinceEpoch: base + Int64.random(in: -10...15, using: &generator) * 86_400_000)!),
            ownership: maybe(TaskQuery.Ownership.allCases.randomElement(using: &generator)!),
            sort: TaskQuery.SortKey.allCases.randomElement(using: &generator)!,
            limit: maybe(Int.random(in: 1...10, using: &generator)))
        if Int.random(in: 0..<100, using: &generator) < 15 {
            query.overdue = true
        } else if Int.random(in: 0..<100, using: &generator) < 10 {
            query.noDue = true
        }
        return query
    }
}
