import CanonicalJSON
import Foundation
import Testing

@Suite struct TasksCLITests {
    /// Runs `tandem tasks <arguments> --profile DIR --now NOW`.
    struct Profile {
        let directory: URL

        func run(_ arguments: [String], now: String = "2025-10-27T09:00:00.000Z") async throws -> TandemProcess.Output {
            try await TandemProcess.run(["tasks"] + arguments + ["--profile", directory.path, "--now", now])
        }

        func json(_ arguments: [String], now: String = "2025-10-27T09:00:00.000Z") async throws -> JSONValue {
            let output = try await run(arguments + ["--json"], now: now)
            #expect(output.status == 0, "\(arguments): \(output.stderrText)")
            return try CanonicalJSON.parse(output.stdout)
        }
    }

    @Test func offlineFlowFromAFreshProfile() async throws {
        let directory = try TandemProcess.temporaryDirectory().appendingPathComponent("profile")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let profile = Profile(directory: directory)

        // Given a fresh profile, adding creates the key (0600) and prints the new task id.
        let added = try await profile.run(["add", "Water plants", "--priority", "4", "--every", "3"])
        #expect(added.status == 0, "\(added.stderrText)")
        let id = added.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(id.count == 36)
        let keyPath = directory.appendingPathComponent("identity.key").path
        let permissions = try FileManager.default.attributesOfItem(atPath: keyPath)[.posixPermissions] as? NSNumber
        #expect(permissions?.intValue == 0o600)
        _ = try await profile.run(["add", "Taxes", "--due", "2025-10-28"])

        // Then list ranks the task due sooner first.
        let listed = try await profile.json(["list"])
        #expect(listed.arrayValue?.count == 2)
        #expect(listed.arrayValue?.first?["title"] == .string("Taxes"))

        // When it is done, the next todo is due frequencyDays after completion.
        await #expect(try profile.run(["done", String(id.prefix(8))], now: "2025-10-28T09:00:00.000Z").status == 0)
        var shown = try await profile.json(["show", id])
        #expect(shown["todoTasks"]?.arrayValue?.count == 2)
        let current = shown["currentTodo"]?.stringValue
        let next = shown["todoTasks"]?.arrayValue?.first { $0["guid"]?.stringValue == current }
        #expect(next?["deadline"] == .string("2025-10-31T09:00:00.000Z"))

        // Snooze, edit, archive, unarchive all show up in the replayed state.
        await #expect(try profile.run(["snooze", id, "--until", "2025-11-15"]).status == 0)
        await #expect(try profile.run(["edit", id, "--title", "Water all plants", "--priority", "5"]).status == 0)
        await #expect(try profile.run(["archive", id]).status == 0)
        shown = try await profile.json(["show", id])
        #expect(shown["title"] == .string("Water all plants"))
        #expect(shown["priority"] == .number(5))
        #expect(shown["archived"] == .bool(true))
        await #expect(try profile.json(["list"]).arrayValue?.count == 1)
        await #expect(try profile.run(["unarchive", id]).status == 0)
        await #expect(try profile.json(["list"]).arrayValue?.count == 2)

        // Delete removes it from the state; its log keeps every node, each one valid and signed.
        await #expect(try profile.run(["delete", id]).status == 0)
        await #expect(try profile.json(["list"]).arrayValue?.count == 1)
        let log = try await profile.json(["log", id])
        let actions = (log.arrayValue ?? []).compactMap { $0["action"]?.stringValue }
        #expect(
            actions == [
                "CREATE", "CREATE_TODO", "COMPLETE_TODO", "CREATE_TODO", "SNOOZE", "UPDATE", "ARCHIVE",
                "UNARCHIVE", "DELETE",
            ])
        let logFile = directory.appendingPathComponent("log.json")
        try Data(try CanonicalJSON.canonicalBytes(of: log)).write(to: logFile)
        let replay = try CanonicalJSON.parse(
            try await TandemProcess.run(["redo", "replay", logFile.path, "--json", "--require-signature"]).stdout)
        #expect(replay["deletedTasks"] == .array([.string(id)]))
        #expect(replay["rejected"] == .array([]))
    }

    @Test func badInputExitsOneWithOneLine() async throws {
        let directory = try TandemProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = Profile(directory: directory)
        for arguments in [
            ["add", "x", "--priority", "9"], ["show", "ffff"], ["add", "x", "--due", "next week"],
            ["done", "0000"],
        ] {
            let output = try await profile.run(arguments)
            #expect(output.status == 1, "\(arguments)")
            #expect(output.stderrText.hasPrefix("tandem: "), "\(arguments)")
            #expect(output.stderrText.filter { $0 == "\n" }.count == 1, "\(arguments)")
        }
    }

    /// Issue 50 item 8: a title written by someone else (a shared task's, here typed in) reaches
    /// human output without the escape sequences, C1 controls and bidi overrides it carries;
    /// JSON keeps the text and escapes the controls.
    @Test func aTitlesControlCharactersNeverReachTheTerminal() async throws {
        let directory = try TandemProcess.temporaryDirectory().appendingPathComponent("profile")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let profile = Profile(directory: directory)
        let hostile = "Pay \u{1B}[2J\u{1B}]0;owned\u{07}rent\u{9B}31m \u{202E}gnp.exe\u{7F}"
        let added = try await profile.run(["add", hostile])
        #expect(added.status == 0, "\(added.stderrText)")
        let listed = try await profile.run(["list"])
        #expect(listed.status == 0)
        let shown = listed.stdoutText
        #expect(shown.contains("Pay [2J]0;ownedrent31m gnp.exe"))
        for unsafe: Unicode.Scalar in ["\u{1B}", "\u{07}", "\u{9B}", "\u{202E}", "\u{7F}"] {
            #expect(!shown.unicodeScalars.contains(unsafe), "U+\(String(unsafe.value, radix: 16)) reached the terminal")
        }
        let json = try await profile.json(["list"])
        #expect(json.arrayValue?.first?["title"] == .string(hostile))
    }
}
