import Foundation
import TaskStore
import TestSupport
import Testing

extension TasksForPeopleCLITests {
    static func json(_ output: TandemProcess.Output) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any], "\(output.stderrText)")
    }

    @Test("a task done once is archived by its completion, and no next todo is scheduled")
    func onceIsArchivedWhenDone() async throws {
        let profile = try TandemProcess.temporaryDirectory().appendingPathComponent("p").path
        let added = try Self.json(
            try await Self.run(["tasks", "add", "Renew the passport", "--once", "--due", "friday", "--json"], profile))
        let id = try #require(added["taskId"] as? String)
        #expect(added["once"] as? Bool == true)
        #expect(added["frequencyDays"] as? Int == 36_500, "Redo v1 has no one-time value: a century stands for it")
        let recurring = try Self.json(try await Self.run(["tasks", "add", "Water the plants", "--json"], profile))
        #expect(recurring["once"] as? Bool == false)

        let done = try await Self.run(["tasks", "done", String(id.prefix(8))], profile)
        #expect(done.status == 0 && done.stdoutText == "done; archived (a task done once)\n", "\(done.stderrText)")
        #expect(try await Self.dues(profile).keys.sorted() == ["Water the plants"], "gone from the active list")
        let archived = try await Self.run(["tasks", "list", "--status", "archived", "--json"], profile)
        let rows = try #require(try JSONSerialization.jsonObject(with: archived.stdout) as? [[String: Any]])
        #expect(rows.map { $0["title"] as? String } == ["Renew the passport"])
        #expect(rows.first?["dueAt"] is NSNull, "no next todo")
        let log = try await Self.run(["tasks", "log", id, "--json"], profile)
        let actions = (try JSONSerialization.jsonObject(with: log.stdout) as? [[String: Any]])?.compactMap {
            $0["action"] as? String
        }
        #expect(actions == ["CREATE", "CREATE_TODO", "COMPLETE_TODO", "ARCHIVE"])

        let both = try await Self.run(["tasks", "add", "x", "--once", "--every", "3"], profile)
        #expect(both.status == 1 && both.stderrLines.count == 1, "\(both.stderrText)")
    }

    /// The web app completes tasks with code of its own (Tests/WebApp/once.test.mjs checks what it
    /// writes): it must read the same century as once.
    @Test func theWebAppReadsTheSameConvention() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources/TandemServer/Resources/app/tasks.js").standardized
        let text = try String(contentsOf: source, encoding: .utf8)
        #expect(text.contains("export const ONE_TIME_FREQUENCY_DAYS = \(OneTimeTask.frequencyDays);"))
    }

    @Test("human output shows local time, or UTC when asked; presets read as the flags that make them")
    func humanTimes() async throws {
        let profile = try TandemProcess.temporaryDirectory().appendingPathComponent("p").path
        let berlin = ["TZ": "Europe/Berlin"]
        func run(_ arguments: [String]) async throws -> String {
            let output = try await TandemProcess.run(arguments + ["--profile", profile], environment: berlin)
            #expect(output.status == 0, "\(arguments): \(output.stderrText)")
            return output.stdoutText
        }
        let id = try await run(["tasks", "add", "Buy presents", "--due", "2026-12-24", "--now", Self.now])
            .trimmingCharacters(in: .newlines)
        _ = try await run(["tasks", "add", "Dentist", "--due", "2026-12-02T09:30", "--now", Self.now])

        let local = try await run(["tasks", "list", "--sort", "due", "--now", Self.now])
        #expect(local.contains("due 2026-12-02 09:30  Dentist"), "\(local)")
        #expect(local.contains("due 2026-12-24  Buy presents"), "a local midnight is its day: \(local)")
        let utc = try await run(["tasks", "list", "--sort", "due", "--utc", "--now", Self.now])
        #expect(utc.contains("due 2026-12-02 08:30 UTC  Dentist"), "\(utc)")
        #expect(utc.contains("due 2026-12-23 23:00 UTC  Buy presents"), "\(utc)")
        #expect(try await run(["tasks", "show", id]).contains("due 2026-12-24 current"))

        _ = try await run(["tasks", "preset", "save", "soon", "--priority-min", "3", "--due-before", "2026-12-10"])
        _ = try await run(["tasks", "preset", "save", "all", "--status", "all", "--search", "buy presents"])
        let presets = try await run(["tasks", "preset", "list"])
        #expect(
            presets.split(separator: "\n").sorted() == [
                "all  --search 'buy presents' --status all", "soon  --priority-min 3 --due-before 2026-12-10",
            ], "\(presets)")
        // What the list shows is typed back as is.
        #expect(
            try await run(["tasks", "list", "--priority-min", "3", "--due-before", "2026-12-10"]).contains("Dentist"))
    }
}
