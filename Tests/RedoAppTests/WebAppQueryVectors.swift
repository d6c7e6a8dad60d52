import CanonicalJSON
import Foundation
import RedoApp
import RedoProtocol
import TandemTesting

/// Differential vectors for the web app's query (issue 45 item 4): seeded random task sets as
/// Redo nodes, queries over them, and the task ids `TaskQuery` answers, in order. The web app's
/// Node suite (`Tests/WebApp/query.test.mjs`) replays the same nodes with `replay.js` and must
/// answer the same ids with `query.js`. Everything is drawn from fixed seeds and unsigned nodes
/// (the replay does not check signatures), so the file is the same on every machine.
enum WebAppQueryVectors {
    /// Words with case, accents, ligatures, decomposed marks and non-Latin scripts: what folding
    /// must treat alike in both languages.
    static let words = [
        "Water", "plants", "Café", "cafe", "NAÏVE", "naive", "Straße", "Ärger", "résumé", "RESUME", "bank",
        "Ωmega", "ﬁle", "e\u{301}clair", "éclair", "İstanbul", "ΣΟΦΊΑ", "Zoë", "øre", "東京", "call", "Call",
        "renew", "passport",
    ]

    static let base = Int64(1_774_429_200_000)  // 2026-03-25T09:00:00.000Z
    static let day = Int64(86_400_000)

    static func wall(_ millis: Int64) -> WallTime { WallTime(millisecondsSinceEpoch: millis)! }

    /// The whole vector file: `{"sets": [{"nodes", "accountKeys", "cases": [{"query", "now",
    /// "expected"}]}]}`, canonical JSON.
    static func file() throws -> [UInt8] {
        var sets: [JSONValue] = []
        for index in 0..<5 { sets.append(try set(seed: 0x5EED_0000 + UInt64(index))) }
        let about =
            "Written by RedoAppTests (WebAppQueryVectorTests) from TaskQuery and TaskStatistics; read by Tests/WebApp/query.test.mjs and stats.test.mjs."
        let root = try JSONObject([("about", .string(about)), ("sets", .array(sets))])
        return try CanonicalJSON.canonicalBytes(of: .object(root))
    }

    static func set(seed: UInt64) throws -> JSONValue {
        var random = SeededRandom(seed: seed)
        let keys = try (0..<3).map { _ in
            try SigningKey(seed: (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
        var nodes: [RedoNode] = []
        for _ in 0..<Int.random(in: 12...22, using: &random) {
            nodes += try task(random: &random, keys: keys)
        }
        // The account holds the first two keys; the third is someone who shared tasks with it.
        let accountKeys = keys.prefix(2).map(\.userID)
        let tasks = Replayer.replay(nodes).tasks
        var cases: [JSONValue] = []
        for _ in 0..<24 {
            let (query, json) = try randomQuery(random: &random)
            let now = base + Int64.random(in: -2 * day...6 * day, using: &random)
            let rows = query.run(on: tasks, context: TaskQueryContext(now: wall(now), accountKeys: Set(accountKeys)))
            cases.append(
                .object(
                    try JSONObject([
                        ("query", json),
                        ("now", .number(Double(now))),
                        ("expected", .array(rows.map { .string($0.task.taskID.description) })),
                    ])))
        }
        return .object(
            try JSONObject([
                ("nodes", .array(nodes.map { .object($0.json) })),
                ("accountKeys", .array(accountKeys.map { .string($0.description) })),
                ("cases", .array(cases)),
                ("statistics", .array(try statisticsCases(tasks, random: &random))),
            ]))
    }

    /// Time zones with and without daylight saving (both changes fall inside the sets' weeks:
    /// 8 March in New York, 29 March in Berlin), a half-hour offset and a half-hour DST.
    static let zones = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Australia/Lord_Howe"]

    /// `TaskStatistics` over the set at a few instants in each zone, as the web app's
    /// `statistics()` reports it (the members of `tandem tasks stats --json` and `lastEightWeeks`).
    static func statisticsCases(_ tasks: [RedoTask], random: inout SeededRandom) throws -> [JSONValue] {
        var cases: [JSONValue] = []
        for zone in zones {
            for _ in 0..<2 {
                let now = base + Int64.random(in: -16 * day...6 * day, using: &random)
                let stats = TaskStatistics.compute(tasks: tasks, now: wall(now), timeZone: TimeZone(identifier: zone)!)
                cases.append(
                    .object(
                        try JSONObject([
                            ("zone", .string(zone)), ("now", .number(Double(now))),
                            ("expected", try statisticsJSON(stats)),
                        ])))
            }
        }
        return cases
    }

    static func statisticsJSON(_ stats: TaskStatistics) throws -> JSONValue {
        func count(_ value: Int) -> JSONValue { .number(Double(value)) }
        let byDay = try JSONObject(stats.completionsByDay.map { ($0.key, count($0.value)) })
        let byPriority = try JSONObject(stats.byPriority.map { (String($0.key), count($0.value)) })
        let predictions: [JSONValue] = try stats.predictions.map { prediction in
            .object(
                try JSONObject([
                    ("taskId", .string(prediction.taskID.description)),
                    ("expectedCompletion", .string(prediction.expectedCompletion.description)),
                ]))
        }
        let weeks: [JSONValue] = try stats.lastEightWeeks.map { week in
            .object(try JSONObject([("start", .string(week.start)), ("completions", count(week.completions))]))
        }
        return .object(
            try JSONObject([
                ("completions", count(stats.completions)), ("completionsByDay", .object(byDay)),
                ("onTimeRate", stats.onTimeRate.map { .number($0) } ?? .null),
                ("currentStreakDays", count(stats.currentStreakDays)),
                ("longestStreakDays", count(stats.longestStreakDays)),
                ("averageLeadTimeHours", stats.averageLeadTimeHours.map { .number($0) } ?? .null),
                ("overdueNow", count(stats.overdueNow)), ("byPriority", .object(byPriority)),
                ("busiestWeekday", stats.busiestWeekdayName.map { .string($0) } ?? .null),
                ("predictions", .array(predictions)), ("expectedOverdueNextWeek", count(stats.expectedOverdueNextWeek)),
                ("insights", .array(stats.insights.map { .string($0) })), ("lastEightWeeks", .array(weeks)),
            ]))
    }

    /// One task's nodes, a linear chain: its CREATE and first todo, then random changes.
    static func task(random: inout SeededRandom, keys: [SigningKey]) throws -> [RedoNode] {
        let taskID = TaskID(randomBytes: bytes(16, &random))
        var clock = base + Int64.random(in: -20 * day...0, using: &random)
        var lamport: Int64 = 0
        var nodes: [RedoNode] = []
        var todo: TodoID?
        var archived = false
        func add(_ payload: NodePayload, by key: SigningKey) throws {
            lamport += 1
            clock += Int64.random(in: 1_000...(6 * 3_600_000), using: &random)
            let draft = NodeDraft(
                taskID: taskID, action: payload.action, payload: try payload.jsonObject(),
                parents: nodes.last.map { [$0.id] } ?? [], lamport: lamport, wall: wall(clock),
                author: Author(publicKey: key.publicKey, deviceID: DeviceID("vectors")!))
            nodes.append(try draft.node(signedWith: nil))
        }
        let creator = keys[Int.random(in: 0..<keys.count, using: &random)]
        try add(
            .create(
                TaskFieldChanges(
                    title: phrase(&random), description: Bool.random(using: &random) ? phrase(&random) : nil,
                    storyPoints: Int64.random(in: 1...8, using: &random),
                    priority: Int64.random(in: 1...5, using: &random)
                )), by: creator)
        func newTodo(_ key: SigningKey) throws {
            let id = TodoID(randomBytes: bytes(16, &random))
            let deadline = base + Int64.random(in: -10 * day...20 * day, using: &random)
            try add(
                .createTodo(
                    todo: id, deadline: wall(deadline), notes: Bool.random(using: &random) ? phrase(&random) : nil),
                by: key)
            todo = id
        }
        if Int.random(in: 0..<8, using: &random) > 0 { try newTodo(creator) }
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                try add(
                    .update(
                        TaskFieldChanges(title: phrase(&random), priority: Int64.random(in: 1...5, using: &random))),
                    by: key)
            case 1:
                if let open = todo {
                    try add(.completeTodo(todo: open, completed: wall(clock + 1), notes: nil), by: key)
                    todo = nil
                    if Bool.random(using: &random) { try newTodo(key) }
                }
            case 2:
                if let open = todo {
                    try add(
                        .snooze(todo: open, change: .extendByDays(Int64.random(in: 1...5, using: &random)), notes: nil),
                        by: key)
                }
            case 3:
                try add(archived ? .unarchive : .archive, by: key)
                archived.toggle()
            default:
                try add(.update(TaskFieldChanges(description: phrase(&random))), by: key)
            }
        }
        return nodes
    }

    static func phrase(_ random: inout SeededRandom) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(
            separator: " ")
    }

    static func bytes(_ count: Int, _ random: inout SeededRandom) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
    }

    /// A random query, and the same query in the web app's shape (`defaultQuery()` of query.js).
    static func randomQuery(random: inout SeededRandom) throws -> (TaskQuery, JSONValue) {
        var query = TaskQuery()
        query.status = TaskQuery.Status.allCases.randomElement(using: &random)!
        query.sort = TaskQuery.SortKey.allCases.randomElement(using: &random)!
        if Int.random(in: 0..<3, using: &random) == 0 {
            // A word as written, or changed in case, or one that is in no task.
            let word = Bool.random(using: &random) ? words.randomElement(using: &random)! : "nowhere"
            query.search = [word, word.uppercased(), word.lowercased(), " \(word)  "].randomElement(using: &random)!
        }
        if Int.random(in: 0..<4, using: &random) == 0 { query.priorityMin = Int64.random(in: 1...5, using: &random) }
        if Int.random(in: 0..<4, using: &random) == 0 { query.priorityMax = Int64.random(in: 2...5, using: &random) }
        if Int.random(in: 0..<5, using: &random) == 0 {
            query.dueBefore = wall(base + Int64.random(in: -5 * day...15 * day, using: &random))
        }
        if Int.random(in: 0..<5, using: &random) == 0 {
            query.dueAfter = wall(base + Int64.random(in: -10 * day...5 * day, using: &random))
        }
        query.overdue = Int.random(in: 0..<5, using: &random) == 0
        query.noDue = Int.random(in: 0..<8, using: &random) == 0
        if Int.random(in: 0..<3, using: &random) == 0 {
            query.ownership = TaskQuery.Ownership.allCases.randomElement(using: &random)!
        }
        if Int.random(in: 0..<4, using: &random) == 0 { query.limit = Int.random(in: 1...6, using: &random) }
        return (query, try pageJSON(query))
    }

    /// A query in the web app's page shape (`defaultQuery()` of query.js): every member, null
    /// when unset.
    static func pageJSON(_ query: TaskQuery) throws -> JSONValue {
        func optional(_ value: JSONValue?) -> JSONValue { value ?? .null }
        return .object(
            try JSONObject([
                ("search", .string(query.search ?? "")),
                ("status", .string(query.status.rawValue)),
                ("priorityMin", optional(query.priorityMin.map { .number(Double($0)) })),
                ("priorityMax", optional(query.priorityMax.map { .number(Double($0)) })),
                ("dueBefore", optional(query.dueBefore.map { .string($0.description) })),
                ("dueAfter", optional(query.dueAfter.map { .string($0.description) })),
                ("overdue", .bool(query.overdue)),
                ("noDue", .bool(query.noDue)),
                ("ownership", optional(query.ownership.map { .string($0.rawValue) })),
                ("sort", .string(query.sort.rawValue)),
                ("limit", optional(query.limit.map { .number(Double($0)) })),
            ]))
    }
}
