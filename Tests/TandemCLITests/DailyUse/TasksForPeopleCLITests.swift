import Foundation
import TestSupport
import Testing

/// Tasks for people (issue 51 item 10): dates as people write them, id prefixes long enough that
/// a slip cannot change the wrong task, and a question on a terminal before a delete.
@Suite("Tasks for people (issue 51)")
struct TasksForPeopleCLITests {
    static let now = "2026-11-30T14:00:00.000Z"  // a Monday

    static func run(_ arguments: [String], _ profile: String) async throws -> TandemProcess.Output {
        try await TandemProcess.run(arguments + ["--profile", profile], environment: ["TZ": "UTC"])
    }

    static func dues(_ profile: String) async throws -> [String: String] {
        let listed = try await run(["tasks", "list", "--json", "--now", now], profile)
        let rows = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        var dues: [String: String] = [:]
        for row in rows { dues[row["title"] as? String ?? ""] = row["dueAt"] as? String }
        return dues
    }

    @Test("due dates take days, times with or without a zone, today, tomorrow and weekdays")
    func datesAsPeopleWriteThem() async throws {
        let profile = try TandemProcess.temporaryDirectory().appendingPathComponent("p").path
        for (title, due) in [
            ("a", "tomorrow"), ("b", "friday"), ("c", "2026-12-24"), ("d", "2026-12-24T18:30"),
            ("e", "2026-12-24T18:30+01:00"),
        ] {
            let added = try await Self.run(["tasks", "add", title, "--due", due, "--now", Self.now], profile)
            #expect(added.status == 0, "\(due): \(added.stderrText)")
        }
        let dues = try await Self.dues(profile)
        #expect(dues["a"] == "2026-12-01T00:00:00.000Z")
        #expect(dues["b"] == "2026-12-04T00:00:00.000Z")
        #expect(dues["c"] == "2026-12-24T00:00:00.000Z")
        #expect(dues["d"] == "2026-12-24T18:30:00.000Z")
        #expect(dues["e"] == "2026-12-24T17:30:00.000Z")
        let bad = try await Self.run(["tasks", "add", "f", "--due", "next week"], profile)
        #expect(bad.status == 1 && bad.stderrLines.count == 1)
        #expect(bad.stderrText.contains("today, tomorrow or a weekday"))
    }

    @Test("a change needs at least four characters of the id; a script deletes without a question")
    func prefixesAndDelete() async throws {
        let profile = try TandemProcess.temporaryDirectory().appendingPathComponent("p").path
        let added = try await Self.run(["tasks", "add", "Water the plants"], profile)
        let id = added.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(id.count >= 8, "\(added.stdoutText)")
        for command in ["done", "archive", "delete"] {
            let short = try await Self.run(["tasks", command, String(id.prefix(3))], profile)
            #expect(short.status == 1, "\(command)")
            #expect(short.stderrText.contains("too short to change a task"), "\(short.stderrText)")
        }
        #expect(
            try await Self.run(["tasks", "show", String(id.prefix(3))], profile).status == 0,
            "reads keep short prefixes")
        let deleted = try await Self.run(["tasks", "delete", String(id.prefix(4))], profile)
        #expect(deleted.status == 0 && deleted.stdoutText == "deleted\n", "\(deleted.stderrText)")
    }

    @Test(
        "a terminal sees the task's title and is asked before a delete",
        .enabled(if: TmuxSession.isAvailable, "tmux is not installed"))
    func deleteAsksOnATerminal() async throws {
        let profile = try TandemProcess.temporaryDirectory().appendingPathComponent("p").path
        let added = try await Self.run(["tasks", "add", "Call the plumber"], profile)
        let id = String(added.stdoutText.prefix(8))
        let command = [TandemProcess.binary.path, "tasks", "delete", id, "--profile", profile]
        try await KaspaSpendingCLITests.inTmux(command) { tmux in
            try await tmux.waitFor("the question") { $0.joined().contains("delete “Call the plumber” (\(id))? [y/N]") }
            try await tmux.type("n")
            try await tmux.press("Enter")
            try await tmux.waitFor("the refusal") { $0.joined().contains("[exit 1]") }
        }
        #expect(try await Self.dues(profile).keys.contains("Call the plumber"), "still there")
        try await KaspaSpendingCLITests.inTmux(command) { tmux in
            try await tmux.waitFor("the question") { $0.joined().contains("[y/N]") }
            try await tmux.type("y")
            try await tmux.press("Enter")
            try await tmux.waitFor("the delete") { $0.joined().contains("[exit 0]") }
        }
        #expect(try await Self.dues(profile).isEmpty)
    }
}
