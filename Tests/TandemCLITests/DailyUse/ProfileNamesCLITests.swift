import Foundation
import TestSupport
import Testing

/// Profiles by name and the current profile (issue 51 item 2): a mistyped profile and a read
/// command create nothing, commands that make a profile say so, `profile list|show|use` and
/// `TANDEM_PROFILE` choose one, and a chat-only profile keeps its first `--server`.
@Suite("Profiles by name (issue 51)")
struct ProfileNamesCLITests {
    /// A home directory of its own, so `~/.tandem` is the test's.
    struct Home {
        let scratch: URL
        var environment: [String: String] { ["HOME": scratch.path, "TANDEM_PROFILE": "", "TANDEM_SERVER": ""] }
        var tandem: URL { scratch.appendingPathComponent(".tandem") }

        init() throws { scratch = try TandemProcess.temporaryDirectory() }

        func run(_ arguments: String..., stdin: String = "", extra: [String: String] = [:]) async throws
            -> TandemProcess.Output
        {
            try await TandemProcess.run(
                arguments, stdin: Data(stdin.utf8), environment: environment.merging(extra) { $1 })
        }

        func exists(_ path: String) -> Bool {
            FileManager.default.fileExists(atPath: tandem.appendingPathComponent(path).path)
        }
    }

    @Test("a mistyped profile and every read command create nothing: one line naming it and `tandem profile list`")
    func readCommandsRefuseAMissingProfile() async throws {
        let home = try Home()
        try #require(try await home.run("keys", "new", "--profile", "alice").status == 0)
        let typo = home.scratch.appendingPathComponent("alcie-dir").path
        let reads: [[String]] = [
            ["tasks", "list", "--profile", "alcie"], ["contacts", "list", "--profile", "alcie"],
            ["chat", "conversations", "--profile", "alcie"], ["keys", "show", "--profile", "alcie"],
            ["wallet", "balance", "--profile", "alcie"],
            ["chat", "send", "--to", ProfileCLITests.peer, "hi", "--profile", "alcie"],
            ["tasks", "list", "--profile", typo], ["profile", "show", "--profile", typo],
        ]
        for arguments in reads {
            let output = try await TandemProcess.run(arguments, environment: home.environment)
            #expect(output.status == 1, "\(arguments)")
            #expect(output.stderrLines.count == 1, "\(arguments): \(output.stderrText)")
            #expect(output.stderrText.contains("no profile"), "\(arguments): \(output.stderrText)")
            #expect(output.stderrText.contains("tandem profile list"), "\(arguments)")
        }
        #expect(!home.exists("profiles/alcie"))
        #expect(!FileManager.default.fileExists(atPath: typo))
        // The default profile is refused the same way when nothing names one.
        let bare = try await home.run("tasks", "list")
        #expect(bare.status == 1 && bare.stderrText.contains("(the default)"))
        #expect(!home.exists("profile"))
    }

    @Test("commands that make a profile say so on stderr; a failed one leaves nothing")
    func creatingCommandsSaySo() async throws {
        let home = try Home()
        let made = try await home.run("tasks", "add", "Water the plants", "--profile", "work")
        #expect(made.status == 0, "\(made.stderrText)")
        let path = home.tandem.appendingPathComponent("profiles/work").path
        #expect(made.stderrText.contains("tandem: created profile 'work' at \(path)"), "\(made.stderrText)")
        let again = try await home.run("tasks", "add", "Second", "--profile", "work")
        #expect(!again.stderrText.contains("created profile"), "said once, when it was made")

        let failed = try await home.run(
            "keys", "import", "--mnemonic-stdin", "--profile", "broken", stdin: "not words\n")
        #expect(failed.status == 1)
        #expect(!failed.stderrText.contains("created profile"))
        #expect(!home.exists("profiles/broken"), "a failed import leaves no empty profile behind")

        let badName = try await home.run("tasks", "add", "x", "--profile", "a b")
        #expect(badName.status == 1 && badName.stderrLines.count == 1)
        #expect(badName.stderrText.contains("not a profile name"))
    }

    @Test("profile use picks the profile of commands that name none; TANDEM_PROFILE and --profile still win")
    func currentProfile() async throws {
        let home = try Home()
        for name in ["alice", "bob"] {
            try #require(try await home.run("keys", "new", "--profile", name).status == 0)
            try #require(try await home.run("tasks", "add", "task of \(name)", "--profile", name).status == 0)
        }
        let missing = try await home.run("profile", "use", "carol")
        #expect(missing.status == 1 && missing.stderrText.contains("no profile 'carol'"))
        #expect(try await home.run("profile", "use", "bob").status == 0)

        #expect(try await home.run("tasks", "list").stdoutText.contains("task of bob"))
        let byVariable = try await home.run("tasks", "list", extra: ["TANDEM_PROFILE": "alice"])
        #expect(byVariable.stdoutText.contains("task of alice"), "a name in TANDEM_PROFILE")
        #expect(try await home.run("tasks", "list", "--profile", "alice").stdoutText.contains("task of alice"))

        let listed = try await home.run("profile", "list", "--json")
        let rows = try #require(try JSONSerialization.jsonObject(with: listed.stdout) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["alice", "bob"])
        #expect(rows.map { $0["current"] as? Bool } == [false, true])
        #expect(try await home.run("profile", "list").stdoutText.contains("* bob"))

        let shown = try await home.run("profile", "show", "--json")
        let show = try #require(try JSONSerialization.jsonObject(with: shown.stdout) as? [String: Any])
        #expect(show["name"] as? String == "bob")
        #expect(show["source"] as? String == "current")
        #expect(show["wallet"] as? String == "mnemonic")
        #expect((show["address"] as? String)?.hasPrefix("kaspa:") == true)

        #expect(try await home.run("profile", "use", "--default").status == 0)
        #expect(try await home.run("tasks", "list").status == 1, "the default profile does not exist")
    }

    @Test(
        "a chat-only profile keeps its first --server; TANDEM_SERVER comes before it; a refused connection is one plain line"
    )
    func serverOfAChatProfile() async throws {
        let home = try Home()
        try #require(try await home.run("keys", "new", "--profile", "alice").status == 0)
        let refused = try await home.run(
            "chat", "sync", "--server", "http://127.0.0.1:9", "--profile", "alice")
        #expect(refused.status == 1)
        #expect(refused.stderrLines.count == 1)
        #expect(refused.stderrText.contains("cannot reach the server at http://127.0.0.1:9"), "\(refused.stderrText)")
        #expect(refused.stderrText.contains("connection refused"))
        for systemText in ["errno", "bind(", "NSCocoaErrorDomain", "NIO", "error set"] {
            #expect(!refused.stderrText.contains(systemText), "\(refused.stderrText)")
        }
        let shown = try await home.run("profile", "show", "--json", "--profile", "alice")
        #expect(shown.stdoutText.contains("\"server\":\"http://127.0.0.1:9\""), "\(shown.stdoutText)")

        let byVariable = try await home.run(
            "chat", "sync", "--profile", "alice", extra: ["TANDEM_SERVER": "http://127.0.0.1:7"])
        #expect(byVariable.stderrText.contains("http://127.0.0.1:7"), "\(byVariable.stderrText)")
        let remembered = try await home.run("chat", "sync", "--profile", "alice")
        #expect(remembered.stderrText.contains("http://127.0.0.1:9"), "\(remembered.stderrText)")

        // history and conversations read the profile only: no --server in their help.
        let help = try await home.run("chat", "history", "--help")
        #expect(!help.stdoutText.contains("--server"))
        #expect(try await home.run("chat", "sync", "--help").stdoutText.contains("--server"))
    }

    @Test("a mistyped command gets a suggestion")
    func didYouMean() async throws {
        let cases = [
            (["taks", "list"], "did you mean `tandem tasks`?"),
            (["tasks", "lsit"], "did you mean `tandem tasks list`?"),
            (["chat", "sedn"], "did you mean `tandem chat send`?"),
        ]
        for (arguments, expected) in cases {
            let output = try await TandemProcess.run(arguments)
            #expect(output.status == 1)
            #expect(output.stderrLines.count == 1)
            #expect(output.stderrText.contains(expected), "\(arguments): \(output.stderrText)")
        }
        let far = try await TandemProcess.run(["zzzzzz"])
        #expect(far.status == 1 && !far.stderrText.contains("did you mean"))
    }
}
