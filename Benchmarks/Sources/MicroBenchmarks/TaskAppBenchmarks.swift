import Foundation
import RedoApp
import RedoProtocol
import TandemTesting

/// Issue 27's figures: a query over 10,000 tasks (goal < 20 ms) against ranking them all (what
/// `tasks list` did before), and `tasks stats` over 100,000 completions (goal < 100 ms) against
/// sorting their completion times. The tasks are made directly as replayed state (no signing),
/// from a fixed seed.
public enum TaskAppBenchmarks {
    public static func run(samples: Int = 11) throws -> [BenchReport] {
        [try querySuite().report(samples: samples), try statisticsSuite().report(samples: samples)]
    }

    static let now = WallTime(millisecondsSinceEpoch: 1_780_000_000_000)!
    static let words = [
        "water", "plants", "café", "report", "taxes", "garden", "call", "mom", "gym", "review", "bills", "plan", "trip",
        "Élodie", "trains", "book", "naïve", "draft", "budget", "clean",
    ]

    /// `count` tasks with 1–3 todos (the last open for most), titles of 3 words, some notes.
    static func tasks(count: Int, completedPerTask: Int = 0, seed: UInt64) -> [RedoTask] {
        var random = SeededRandom(seed: seed)
        let author = UserID(String(repeating: "ab", count: 16))!
        let other = UserID(String(repeating: "cd", count: 16))!
        let day: Int64 = 86_400_000
        let base = now.millisecondsSinceEpoch
        return (0..<count).map { index in
            func id() -> [UInt8] { (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) } }
            let node = NodeID(digest: id() + id())
            let created = WallTime(millisecondsSinceEpoch: base - Int64.random(in: 30...400, using: &random) * day)!
            var todos: [TodoTask] = []
            let history = completedPerTask > 0 ? completedPerTask : Int.random(in: 0...2, using: &random)
            var time = created.millisecondsSinceEpoch
            for _ in 0..<history {
                let deadline = time + Int64.random(in: 1...7, using: &random) * day
                let done = deadline + Int64.random(in: -2 * day...day, using: &random)
                todos.append(
                    TodoTask(
                        guid: TodoID(randomBytes: id()), nodeID: node, lamport: 2,
                        wall: WallTime(millisecondsSinceEpoch: time)!,
                        deadline: WallTime(millisecondsSinceEpoch: deadline)!,
                        notes: Int.random(in: 0..<4, using: &random) == 0 ? words.randomElement(using: &random)! : "",
                        completed: WallTime(millisecondsSinceEpoch: done)!))
                time = done
            }
            if Int.random(in: 0..<10, using: &random) > 0 {
                todos.append(
                    TodoTask(
                        guid: TodoID(randomBytes: id()), nodeID: node, lamport: 3,
                        wall: WallTime(millisecondsSinceEpoch: time)!,
                        deadline: WallTime(
                            millisecondsSinceEpoch: base + Int64.random(in: -10 * day...30 * day, using: &random))!,
                        notes: "", completed: nil))
            }
            let title = (0..<3).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            return RedoTask(
                taskID: TaskID(randomBytes: id()), createdBy: index % 5 == 0 ? other : author, created: created,
                title: title.prefix(1).uppercased() + title.dropFirst(),
                description: index % 3 == 0 ? "weekly chore" : "",
                privacy: false, storyPoints: Int64.random(in: 1...5, using: &random),
                priority: Int64.random(in: 1...5, using: &random), frequencyDays: 7,
                archived: Int.random(in: 0..<20, using: &random) == 0, todos: todos, heads: [node], latestNodeID: node,
                updated: WallTime(millisecondsSinceEpoch: time)!)
        }
    }

    public static func querySuite(count: Int = 10_000) throws -> BenchSuite {
        let tasks = tasks(count: count, seed: 27)
        let context = TaskQueryContext(now: now, accountKeys: [UserID(String(repeating: "ab", count: 16))!])
        let search = TaskQuery(search: "CAFE plan", priorityMin: 2, sort: .due)
        let filter = TaskQuery(
            status: .all, dueBefore: WallTime(millisecondsSinceEpoch: now.millisecondsSinceEpoch + 86_400_000 * 7),
            ownership: .mine, sort: .title, limit: 50)
        return BenchSuite(
            title: "Task queries over \(count) tasks",
            baseline: BenchCase("rank every task (today's `tasks list`)", iterations: 5) {
                blackHole(Ranking.ranked(tasks, now: now).count)
            },
            others: [
                BenchCase("query: 2 search words, priority ≥ 2, by due", iterations: 5) {
                    blackHole(search.run(on: tasks, context: context).count)
                },
                BenchCase("query: all statuses, mine, due within a week, by title, 50", iterations: 5) {
                    blackHole(filter.run(on: tasks, context: context).count)
                },
                BenchCase("query: the default (active by rank)", iterations: 5) {
                    blackHole(TaskQuery().run(on: tasks, context: context).count)
                },
            ])
    }

    public static func statisticsSuite(tasks count: Int = 1_000, completions perTask: Int = 100) throws -> BenchSuite {
        let tasks = tasks(count: count, completedPerTask: perTask, seed: 28)
        let times = tasks.flatMap { $0.todos.compactMap { $0.completed?.millisecondsSinceEpoch } }
        guard let berlin = TimeZone(identifier: "Europe/Berlin") else {
            throw BenchError.setup("no Europe/Berlin zone")
        }
        return BenchSuite(
            title: "Task statistics over \(times.count) completions",
            baseline: BenchCase("sort the completion times", iterations: 3) {
                blackHole(times.sorted().count)
            },
            others: [
                BenchCase("stats, UTC days", iterations: 3) {
                    blackHole(TaskStatistics.compute(tasks: tasks, now: now, timeZone: .gmt).completions)
                },
                BenchCase("stats, Europe/Berlin days", iterations: 3) {
                    blackHole(TaskStatistics.compute(tasks: tasks, now: now, timeZone: berlin).completions)
                },
            ])
    }
}
