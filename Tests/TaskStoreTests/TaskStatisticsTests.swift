import Foundation
import RedoApp
import RedoProtocol
import TandemTesting
import TaskStore
import Testing

@Suite struct TaskStatisticsTests {
    static let zone = TimeZone(identifier: "America/New_York")!

    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }

    static func day(_ milliseconds: Int64) -> String {
        let parts = calendar.dateComponents(
            [.year, .month, .day], from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    static func local(_ year: Int, _ month: Int, _ day: Int, minutes: Int = 0) throws -> Int64 {
        let midnight = try #require(calendar.date(from: DateComponents(year: year, month: month, day: day)))
        let date = try #require(calendar.date(byAdding: .minute, value: minutes, to: midnight))
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    static func wallTime(_ milliseconds: Int64) throws -> WallTime {
        try #require(WallTime(millisecondsSinceEpoch: milliseconds))
    }

    /// One completion as the test itself books it.
    struct Booked {
        let completed: Int64
        let deadline: Int64
        let todoCreated: Int64
        let priority: Int64
    }

    /// A year (2025, New York) of three recurring tasks completed through the library with given
    /// times; the test keeps its own book of every deadline and completion.
    struct Year {
        let profile: TemporaryProfile
        let editor: TaskEditor
        var booked: [Booked] = []
        var deadlines: [String: Int64] = [:]
        let now: Int64

        init() throws {
            profile = try TemporaryProfile()
            editor = try profile.editor()
            let added = try local(2024, 12, 31, minutes: 12 * 60)
            let plans: [(title: String, every: Int64, priority: Int64, due: Int64)] = [
                ("Walk", 1, 4, try local(2025, 1, 1, minutes: 20 * 60)),
                ("Review", 7, 2, try local(2025, 1, 7, minutes: 12 * 60)),
                ("Bills", 30, 5, try local(2025, 1, 30, minutes: 9 * 60)),
            ]
            var tasks: [String: (id: String, every: Int64, priority: Int64, created: Int64)] = [:]
            for plan in plans {
                let task = try editor.addTask(
                    title: plan.title, priority: plan.priority, due: try wallTime(plan.due), everyDays: plan.every,
                    now: try wallTime(added))
                tasks[plan.title] = (task.taskID.description, plan.every, plan.priority, added)
                deadlines[plan.title] = plan.due
            }
            var events: [(time: Int64, title: String)] = []
            for d in 0..<365 where d % 11 != 5 {
                events.append((try local(2025, 1, 1 + d, minutes: 21 * 60 + 30 + (d % 4) * 60), "Walk"))
            }
            for d in 0..<365 where d % 7 == 6 && (d / 7) % 5 != 2 {
                events.append((try local(2025, 1, 1 + d, minutes: 10 * 60), "Review"))
            }
            for k in 0..<12 {
                let d = 29 + 30 * k + k % 3
                if d < 365 { events.append((try local(2025, 1, 1 + d, minutes: 8 * 60), "Bills")) }
            }
            events.sort { $0.time < $1.time }
            for event in events {
                guard let task = tasks[event.title], let deadline = deadlines[event.title] else { continue }
                try editor.complete(task.id, now: try wallTime(event.time))
                booked.append(
                    Booked(
                        completed: event.time, deadline: deadline, todoCreated: tasks[event.title]!.created,
                        priority: task.priority))
                deadlines[event.title] = event.time + task.every * 86_400_000
                tasks[event.title]?.created = event.time
            }
            now = try local(2025, 12, 31, minutes: 23 * 60)
        }
    }

    /// The figures the test expects, from its own book and Foundation's calendar.
    static func expected(_ booked: [Booked]) -> (
        byDay: [String: Int], onTime: Double?, lead: Double?, weekday: String?, byPriority: [Int64: Int], longest: Int,
        days: Set<String>
    ) {
        var byDay: [String: Int] = [:]
        var weekdays: [Int: Int] = [:]
        var byPriority: [Int64: Int] = [:]
        for item in booked {
            byDay[day(item.completed), default: 0] += 1
            let weekday = calendar.component(.weekday, from: Date(timeIntervalSince1970: Double(item.completed) / 1000))
            weekdays[weekday, default: 0] += 1
            byPriority[item.priority, default: 0] += 1
        }
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        var busiest: String?
        var most = 0
        for weekday in [2, 3, 4, 5, 6, 7, 1] where (weekdays[weekday] ?? 0) > most {
            most = weekdays[weekday] ?? 0
            busiest = names[weekday - 1]
        }
        let onTime =
            booked.isEmpty ? nil : Double(booked.filter { $0.completed <= $0.deadline }.count) / Double(booked.count)
        let lead =
            booked.isEmpty
            ? nil : booked.map { Double($0.completed - $0.todoCreated) / 3_600_000 }.reduce(0, +) / Double(booked.count)
        let days = Set(byDay.keys)
        var longest = 0
        for start in days {
            guard let previous = neighbour(start, -1), !days.contains(previous) else { continue }
            var length = 1
            var cursor = start
            while let next = neighbour(cursor, 1), days.contains(next) {
                length += 1
                cursor = next
            }
            longest = max(longest, length)
        }
        return (byDay, onTime, lead, busiest, byPriority, longest, days)
    }

    /// Consecutive days in `days` ending `today`, or yesterday when `today` is not in it.
    static func streak(ending today: String, in days: Set<String>) -> Int {
        var count = 0
        var cursor: String? = days.contains(today) ? today : neighbour(today, -1)
        while let day = cursor, days.contains(day) {
            count += 1
            cursor = neighbour(day, -1)
        }
        return count
    }

    /// The calendar day before or after a `YYYY-MM-DD`.
    static func neighbour(_ text: String, _ offset: Int) -> String? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3,
            let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: 12)),
            let moved = calendar.date(byAdding: .day, value: offset, to: date)
        else { return nil }
        return day(Int64(moved.timeIntervalSince1970 * 1000))
    }

    @Test("a year of history: every figure equals the test's own book")
    func aYearOfHistory() throws {
        let year = try Year()
        defer { year.profile.remove() }
        let tasks = try year.editor.state().tasks
        let stats = TaskStatistics.compute(tasks: tasks, now: try Self.wallTime(year.now), timeZone: Self.zone)
        let expected = Self.expected(year.booked)
        #expect(year.booked.count > 380)
        #expect(stats.completions == year.booked.count)
        #expect(stats.completionsByDay == expected.byDay)
        #expect(abs((stats.onTimeRate ?? -1) - (expected.onTime ?? -2)) < 1e-12)
        #expect(abs((stats.averageLeadTimeHours ?? -1) - (expected.lead ?? -2)) < 1e-9)
        #expect(stats.busiestWeekdayName == expected.weekday)
        #expect(stats.byPriority == expected.byPriority)
        #expect(stats.longestStreakDays == expected.longest)
        #expect(stats.currentStreakDays == Self.streak(ending: Self.day(year.now), in: expected.days))
        #expect(stats.overdueNow == year.deadlines.values.filter { $0 < year.now }.count)
        #expect(stats.predictions.count == 3)
        #expect(stats.lastEightWeeks.count == 8)
        #expect(stats.lastEightWeeks.last?.start == "2025-12-25")
        #expect(!stats.insights.isEmpty)

        // A window: the third quarter only.
        let since = try Self.local(2025, 7, 1)
        let until = try Self.local(2025, 10, 1)
        let quarter = TaskStatistics.compute(
            tasks: tasks, now: try Self.wallTime(year.now), timeZone: Self.zone, since: try Self.wallTime(since),
            until: try Self.wallTime(until))
        let inQuarter = year.booked.filter { $0.completed >= since && $0.completed < until }
        let expectedQuarter = Self.expected(inQuarter)
        #expect(quarter.completions == inQuarter.count)
        #expect(quarter.completionsByDay == expectedQuarter.byDay)
        #expect(quarter.longestStreakDays == expectedQuarter.longest)
        // The window ends before now: its streak ends on its last day, September 30.
        #expect(quarter.currentStreakDays == Self.streak(ending: "2025-09-30", in: expectedQuarter.days))
        #expect(quarter.currentStreakDays > 0)
        #expect(quarter.lastEightWeeks.last?.start == "2025-09-24")
    }

    @Test("statistics and queries from a shuffled log are equal", arguments: [11, 12] as [UInt64])
    func shuffledLogGivesEqualFigures(seed: UInt64) throws {
        let fixture = try RandomTaskLog(seed: seed, tasks: 30, changes: 200)
        defer { fixture.remove() }
        let zone = try #require(TimeZone(identifier: "Europe/Berlin"))
        let original = TaskStatistics.compute(tasks: try fixture.mine.state().tasks, now: fixture.now, timeZone: zone)
        #expect(original.completions > 10)
        var nodes = try fixture.mine.log.validNodes()
        var generator = SeededRandom(seed: seed)
        nodes.shuffle(using: &generator)
        let copy = try TaskLog(path: fixture.profile.url.appendingPathComponent("shuffled.sqlite").path)
        for node in nodes { try copy.appendReceived([try LogEntry(node)]) }
        let shuffled = try copy.replay().tasks
        #expect(TaskStatistics.compute(tasks: shuffled, now: fixture.now, timeZone: zone) == original)
        let context = TaskQueryContext(now: fixture.now, accountKeys: [fixture.mine.identity.userID])
        let query = TaskQuery(status: .all, sort: .updated)
        #expect(
            query.run(on: shuffled, context: context).map(\.task.taskID)
                == query.run(on: try fixture.mine.state().tasks, context: context).map(\.task.taskID))
    }

    @Test("predictions: a task's own median lateness, blended with the user's pace when short of history")
    func predictions() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let editor = try profile.editor()
        let hour: Int64 = 3_600_000
        let day: Int64 = 86_400_000
        let start: Int64 = 1_772_366_400_000  // 2026-03-01T12:00:00Z
        // P: three completions, late by 1 h, 3 h, 2 h.
        let p = try editor.addTask(
            title: "P", due: try Self.wallTime(start), everyDays: 7, now: try Self.wallTime(start - day))
        var deadline = start
        var last: Int64 = 0
        for late in [1, 3, 2] as [Int64] {
            last = deadline + late * hour
            try editor.complete(p.taskID.description, now: try Self.wallTime(last))
            deadline = last + 7 * day
        }
        // R: one completion, 4 h early.
        let r = try editor.addTask(
            title: "R", due: try Self.wallTime(start + 2 * day), everyDays: 10, now: try Self.wallTime(start - day))
        let rDone = start + 2 * day - 4 * hour
        try editor.complete(r.taskID.description, now: try Self.wallTime(rDone))
        let now = last + 60_000
        // Q: no history, due in 3 days.
        let q = try editor.addTask(
            title: "Q", due: try Self.wallTime(now + 3 * day), now: try Self.wallTime(now - hour))
        let stats = TaskStatistics.compute(tasks: try editor.state().tasks, now: try Self.wallTime(now), timeZone: .gmt)
        let expected = Dictionary(
            uniqueKeysWithValues: stats.predictions.map { ($0.taskID, $0.expectedCompletion.millisecondsSinceEpoch) })
        // The pace: the median of 1, 3, 2 and −4 hours = 1.5 h.
        let pace = 3 * hour / 2
        #expect(expected[p.taskID] == deadline + 2 * hour)
        #expect(expected[q.taskID] == now + 3 * day + pace)
        let rDeadline = rDone + 10 * day
        #expect(expected[r.taskID] == max(now, rDeadline + (-4 * hour * 1 + pace * 2) / 3))
        // P (due in 7 days less a minute) and Q are expected late within the week; R's lateness
        // is negative.
        #expect(stats.expectedOverdueNextWeek == 2)
    }
}
