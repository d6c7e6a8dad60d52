import CanonicalJSON
import Foundation
import Testing

/// `tandem tasks` for the app layer (issue 27): every field, find and filter, stats, today.
@Suite struct TasksAppCLITests {
    typealias Profile = TasksCLITests.Profile

    @Test func everyFieldThenFindAndFilter() async throws {
        let scratch = try TandemProcess.temporaryDirectory()
        let profile = Profile(directory: scratch.appendingPathComponent("profile"))
        let added = try await profile.json([
            "add", "Plan the café trip", "--priority", "4", "--every", "14", "--due", "2025-10-30",
            "--description", "Book Ünter den Linden", "--story-points", "3", "--private",
        ])
        let id = try #require(added["taskId"]?.stringValue)
        #expect(added["storyPoints"] == .number(3))
        #expect(added["private"] == .bool(true))
        #expect(added["once"] == .bool(false))
        _ = try await profile.run(["add", "Taxes", "--priority", "2", "--due", "2025-10-20"])
        _ = try await profile.run(["add", "Gym", "--priority", "5", "--due", "2025-11-20"])

        let edited = try await profile.json(
            [
                "edit", id, "--priority", "5", "--public", "--story-points", "2", "--every", "7", "--due", "2025-11-02",
                "--notes", "ask about trains", "--description", "Book Unter den Linden",
            ], now: "2025-10-28T09:00:00.000Z")
        #expect(edited["priority"] == .number(5))
        #expect(edited["private"] == .bool(false))
        #expect(edited["dueAt"] == .string("2025-11-02T00:00:00.000Z"))
        #expect(edited["frequencyDays"] == .number(7))
        let log = try await profile.json(["log", id])
        #expect(
            (log.arrayValue ?? []).compactMap { $0["action"]?.stringValue } == [
                "CREATE", "CREATE_TODO", "UPDATE", "SNOOZE",
            ])

        // Search: any case, any accents, every word.
        let found = try await profile.json(["list", "--search", "CAFE trains"], now: "2025-10-28T10:00:00.000Z")
        #expect(found.arrayValue?.count == 1)
        let row = try #require(found.arrayValue?.first)
        #expect(
            Set(row.objectValue?.keys.map { $0 } ?? []) == [
                "taskId", "title", "priority", "dueAt", "rank", "description", "storyPoints", "private",
                "frequencyDays",
                "once", "createdAt", "updatedAt", "archived", "due", "created", "updated",
            ])
        #expect(
            Set(row.objectValue?.keys.map { $0 } ?? []).union([
                "privacy", "createdBy", "todoTasks", "currentTodo", "heads", "latestNodeId",
            ])
                == Set(edited.objectValue?.keys.map { $0 } ?? []),
            "tasks edit --json and tasks list --json give the same task shape (and the replay members, one more release)"
        )
        #expect(edited["privacy"] == edited["private"])
        #expect(row["dueAt"] == .string("2025-11-02T00:00:00.000Z"))
        #expect(row["due"] == row["dueAt"], "the last release's name, kept for one more")
        #expect(row["updatedAt"] == .string("2025-10-28T09:00:00.000Z"))
        #expect(row["private"] == .bool(false))

        let overdue = try await profile.json(["list", "--overdue"], now: "2025-10-28T10:00:00.000Z")
        #expect(overdue.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Taxes"])
        let byTitle = try await profile.json(["list", "--sort", "title", "--priority-min", "4"])
        #expect(byTitle.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Gym", "Plan the café trip"])
        let limited = try await profile.json(["list", "--sort", "due", "--limit", "2", "--mine"])
        #expect(limited.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Taxes", "Plan the café trip"])
        await #expect(try profile.json(["list", "--shared"]).arrayValue?.isEmpty == true)
        let taxes = try await Self.id(of: "Taxes", profile)
        await #expect(try profile.run(["archive", taxes]).status == 0)
        await #expect(try profile.json(["list", "--status", "archived"]).arrayValue?.count == 1)
        await #expect(try profile.json(["list", "--status", "all"]).arrayValue?.count == 3)
    }

    static func id(of title: String, _ profile: Profile) async throws -> String {
        let rows = try await profile.json(["list", "--status", "all"]).arrayValue ?? []
        return try #require(rows.first { $0["title"]?.stringValue == title }?["taskId"]?.stringValue)
    }

    @Test func statsPrintsTheExactMembersAndWritesTheChart() async throws {
        let scratch = try TandemProcess.temporaryDirectory()
        let profile = Profile(directory: scratch.appendingPathComponent("profile"))
        let id = try await profile.run(
            ["add", "Walk", "--every", "1", "--due", "2025-10-20T18:00:00.000Z"], now: "2025-10-19T09:00:00.000Z"
        )
        .stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        for day in 20...26 {
            _ = try await profile.run(["done", id], now: "2025-10-\(day)T17:00:00.000Z")
        }
        let svg = scratch.appendingPathComponent("chart.svg")
        let stats = try await profile.json(
            ["stats", "--time-zone", "Europe/Berlin", "--svg", svg.path], now: "2025-10-26T20:00:00.000Z")
        #expect(
            Set(stats.objectValue?.keys.map { $0 } ?? []) == [
                "completions", "completionsByDay", "onTimeRate", "currentStreakDays", "longestStreakDays",
                "averageLeadTimeHours", "overdueNow", "byPriority", "busiestWeekday", "predictions",
                "expectedOverdueNextWeek", "insights",
            ])
        #expect(stats["completions"] == .number(7))
        #expect(stats["currentStreakDays"] == .number(7))
        #expect(stats["completionsByDay"]?["2025-10-26"] == .number(1))
        #expect(stats["byPriority"]?["3"] == .number(7))
        #expect(stats["predictions"]?.arrayValue?.first?["taskId"] == .string(id))
        let chart = try String(contentsOf: svg, encoding: .utf8)
        #expect(chart.hasPrefix("<svg "))
        // Days given alone are days in --time-zone; --until counts its own day; a window that
        // ends before now has its streak end at its last day.
        let lastDay = try await profile.json(
            ["stats", "--since", "2025-10-26", "--time-zone", "Europe/Berlin"], now: "2025-10-26T20:00:00.000Z")
        #expect(lastDay["completions"] == .number(1))
        let early = try await profile.json(
            ["stats", "--until", "2025-10-22", "--time-zone", "Europe/Berlin"], now: "2025-10-26T20:00:00.000Z")
        #expect(early["completions"] == .number(3))
        #expect(early["currentStreakDays"] == .number(3))
        let text = try await profile.run(["stats"], now: "2025-10-26T20:00:00.000Z")
        #expect(text.status == 0)
        #expect(text.stdoutText.contains("week of 2025-10-20  ") && text.stdoutText.contains("█"))
        let today = try await profile.json(["today"], now: "2025-10-27T20:00:00.000Z")
        #expect(today.arrayValue?.first?["overdue"] == .bool(true))
    }

    @Test func badInputExitsOneWithOneLine() async throws {
        let scratch = try TandemProcess.temporaryDirectory()
        let profile = Profile(directory: scratch.appendingPathComponent("profile"))
        for arguments in [
            ["list", "--sort", "size"], ["list", "--due-before", "next week"], ["list", "--priority-min", "0"],
            ["list", "--priority-min", "4", "--priority-max", "2"], ["list", "--status", "done"],
            ["list", "--limit", "0"], ["list", "--mine", "--shared"], ["stats", "--since", "yesterday"],
            ["stats", "--time-zone", "Mars/Olympus"], ["add", "x", "--story-points", "-1"],
            ["edit", "ffff", "--title", "y"], ["edit", "ffff", "--private", "--public"],
            ["preset", "save", " "], ["preset", "save", "x", "--sort", "size"], ["preset", "delete", "nope"],
            ["preset", "rename", "nope", "other"], ["list", "--preset", "nope"],
        ] {
            let output = try await profile.run(arguments)
            #expect(output.status == 1, "\(arguments)")
            #expect(output.stderrText.hasPrefix("tandem: "), "\(arguments): \(output.stderrText)")
            #expect(output.stderrText.filter { $0 == "\n" }.count == 1, "\(arguments): \(output.stderrText)")
        }
    }

    @Test func anUnknownSortKeyNamesTheKeysOnItsOneLine() async throws {
        let scratch = try TandemProcess.temporaryDirectory()
        let output = try await Profile(directory: scratch.appendingPathComponent("profile")).run([
            "list", "--sort", "size",
        ])
        #expect(output.status == 1)
        #expect(
            output.stderrText
                == "tandem: The value 'size' is invalid for '--sort <sort>'. Please provide one of the following: "
                + "rank, due, priority, created, updated, title\n")
    }

    @Test func presetsAreSavedListedNarrowedAndDeleted() async throws {
        let scratch = try TandemProcess.temporaryDirectory()
        let profile = Profile(directory: scratch.appendingPathComponent("profile"))
        for (title, priority) in [("Roof", "5"), ("Taxes", "4"), ("Read", "2")] {
            _ = try await profile.run(["add", title, "--priority", priority])
        }
        let saved = try await profile.json(["preset", "save", "urgent", "--priority-min", "4", "--sort", "title"])
        #expect(saved["name"] == .string("urgent"))
        #expect(saved["query"]?["priorityMin"] == .number(4))
        let listed = try await profile.json(["list", "--preset", "urgent"])
        #expect(listed.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Roof", "Taxes"])
        let narrowed = try await profile.json(["list", "--preset", "urgent", "--search", "tax"])
        #expect(narrowed.arrayValue?.compactMap { $0["title"]?.stringValue } == ["Taxes"])
        let presets = try await profile.json(["preset", "list"])
        #expect(presets.arrayValue?.compactMap { $0["name"]?.stringValue } == ["urgent"])
        await #expect(try profile.run(["preset", "rename", "urgent", "hot"]).status == 0)
        await #expect(try profile.run(["preset", "delete", "hot"]).status == 0)
        await #expect(try profile.json(["preset", "list"]).arrayValue?.isEmpty == true)
    }
}
