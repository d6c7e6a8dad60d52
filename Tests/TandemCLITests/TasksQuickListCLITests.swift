import Foundation
import Testing

/// `tandem tasks list` in its plain forms runs without ArgumentParser's parse (issue 49 item 2):
/// what it prints and how it fails must be what the full parse gives. `--status active` is the
/// default query written out, which only the full parse takes.
@Suite struct TasksQuickListCLITests {
    let now = "2025-10-27T09:00:00.000Z"

    /// `tandem tasks list ARGUMENTS`, and the same through the full parse.
    func both(_ arguments: [String]) async throws -> (quick: TandemProcess.Output, full: TandemProcess.Output) {
        let quick = try await TandemProcess.run(["tasks", "list"] + arguments)
        let full = try await TandemProcess.run(["tasks", "list", "--status", "active"] + arguments)
        return (quick, full)
    }

    @Test func theQuickFormsPrintWhatTheFullParsePrints() async throws {
        let directory = try TandemProcess.temporaryDirectory().appendingPathComponent("profile")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let profile = ["--profile", directory.path]
        for (title, extra) in [
            ("Water plants", ["--priority", "4", "--every", "3"]), ("Taxes", ["--due", "2025-10-28"]),
            ("Call at noon", ["--due", "2025-10-29T12:00:00.000Z"]), ("Someday", []),
        ] {
            let added = try await TandemProcess.run(["tasks", "add", title] + extra + profile + ["--now", now])
            #expect(added.status == 0, "\(added.stderrText)")
        }
        for flags in [[], ["--json"], ["--utc"], ["--utc", "--json"]] {
            // Options in either order, as ArgumentParser takes them.
            for arguments in [flags + profile + ["--now", now], ["--now", now] + profile + flags] {
                let (quick, full) = try await both(arguments)
                #expect(quick.status == 0, "\(arguments): \(quick.stderrText)")
                #expect(quick.stdoutText == full.stdoutText, "\(arguments)")
                #expect(quick.stdoutText.contains("Water plants"), "\(arguments)")
                #expect(quick.stderr.isEmpty, "\(arguments)")
            }
        }
    }

    @Test func theQuickFormsFailAsTheFullParseFails() async throws {
        let directory = try TandemProcess.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("no-such-profile").path
        for arguments in [
            ["--profile", missing, "--now", now],  // runs quick, fails in the command
            ["--profile", missing, "--now", "next week"],  // --now does not validate: the full parse says why
            ["--profile", missing, "--profile", missing],  // repeated: the full parse's rules
            ["--profile", "--json"],  // a value that is an option
            ["--profile=\(missing)"],
        ] {
            let (quick, full) = try await both(arguments)
            #expect(quick.status == 1, "\(arguments)")
            #expect(quick.stderrText == full.stderrText, "\(arguments)")
            #expect(quick.stderrText.hasPrefix("tandem: "), "\(arguments)")
            #expect(quick.stderrText.filter { $0 == "\n" }.count == 1, "\(arguments)")
            #expect(!FileManager.default.fileExists(atPath: missing), "\(arguments)")
        }
    }
}
