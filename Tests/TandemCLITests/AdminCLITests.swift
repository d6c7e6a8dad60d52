import Foundation
import TestSupport
import Testing

/// `tandem admin import-betterauth`: imported BetterAuth users sign in through `tandem serve`.
@Suite(.serialized) struct AdminCLITests {
    /// Hash of `password1234` from betterauth-api.md §7.
    static let vectorHash =
        "0123456789abcdef0123456789abcdef:74369303c2129f51b1d88426bc1ea315373e0161c8b065ebff3c355c80ef17331fbba17d67d0aa89370462b5143bdbc1edf3080c5a0721978639f914aa7aeb4f"

    @Test func importedUserLogsInWithTheirBetterAuthPassword() async throws {
        let dataDirectory = try TemporaryDirectory()
        defer { dataDirectory.remove() }
        let export = dataDirectory.url.appendingPathComponent("export.json")
        try Data(
            """
            {"users":[{"id":"ba-1","name":"Imported","email":"imp@example.com","emailVerified":true,"image":null,
              "createdAt":"2025-01-31T12:00:00.000Z","updatedAt":"2025-01-31T12:00:00.000Z","username":"imported","displayUsername":"Imported"}],
             "accounts":[{"id":"acc-1","accountId":"ba-1","providerId":"credential","userId":"ba-1","password":"\(Self.vectorHash)",
              "createdAt":"2025-01-31T12:00:00.000Z","updatedAt":"2025-01-31T12:00:00.000Z"}]}
            """.utf8
        ).write(to: export)

        let imported = try await TandemProcess.run([
            "admin", "import-betterauth", export.path, "--data-dir", dataDirectory.url.path, "--json",
        ])
        #expect(imported.status == 0, "\(imported.stderrText)")
        let report = try #require(try JSONSerialization.jsonObject(with: imported.stdout) as? [String: Any])
        #expect(report["imported"] as? [String] == ["ba-1"])

        // Hashed by BetterAuth with its own N: the server checks them with the real parameters.
        let server = try await ServerProcess.start(dataDirectory: dataDirectory, passwordRounds: 16_384)
        defer { server.stop() }
        let profile = try TandemProcess.temporaryDirectory().path
        let login = try await TandemProcess.run(
            [
                "account", "login", "--username", "Imported", "--password-stdin", "--json", "--server", server.baseURL,
                "--profile", profile,
            ],
            stdin: Data("password1234\n".utf8))
        #expect(login.status == 0, "\(login.stderrText)")
        let user = try #require(try JSONSerialization.jsonObject(with: login.stdout) as? [String: Any])
        #expect(user["id"] as? String == "ba-1")
    }

    @Test func unreadableExportIsAOneLineError() async throws {
        let result = try await TandemProcess.run(["admin", "import-betterauth", "/nonexistent/export.json"])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrText.hasPrefix("tandem: /nonexistent/export.json"))
    }

    /// Issue 14 audit: the password was echoed in the "not a postgres:// URL" error.
    @Test(arguments: [
        ["serve", "--database-url", "postgres://tandem:hunter2-pw@/tandem"],
        ["serve", "--database-url", "postgresql://tandem:hunter2-pw@db:notaport/tandem"],
        ["serve", "--database-url", "mysql://tandem:hunter2-pw@db/tandem"],
        ["admin", "import-betterauth", "EXPORT", "--database-url", "mysql://tandem:hunter2-pw@db/tandem"],
        [
            "admin", "import-betterauth", "EXPORT", "--database-url",
            "postgres://tandem:p@ss:hunter2-pw@/tandem?password=hunter2-pw",
        ],
    ])
    func databaseURLErrorsNeverEchoThePassword(arguments: [String]) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let export = directory.url.appendingPathComponent("export.json")
        try Data(#"{"users":[],"accounts":[]}"#.utf8).write(to: export)
        let result = try await TandemProcess.run(
            arguments.map { $0 == "EXPORT" ? export.path : $0 } + ["--data-dir", directory.url.path])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrText.hasPrefix("tandem: "))
        #expect(!result.stderrText.contains("hunter2"), "\(result.stderrText)")
        #expect(!result.stdoutText.contains("hunter2"))
    }

    @Test(arguments: [
        ["serve", "--database-url", "mysql://x"], ["serve", "--port", "70000"], ["serve", "--sync-queue-limit", "0"],
        ["serve", "--sync-queue-wait", "0"], ["serve", "--quota-nodes", "5"], ["serve", "--quota-contacts", "0:10"],
        ["serve", "--quota-presets", "1:x"], ["serve", "--sync-write-rate", "0"], ["serve", "--sync-write-burst", "0"],
        ["serve", "--share-burst", "0"], ["serve", "--share-rate", "0"], ["serve", "--password-rounds", "3"],
    ])
    func serveRejectsBadOptionsWithOneLine(arguments: [String]) async throws {
        let result = try await TandemProcess.run(arguments)
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrText.hasPrefix("tandem: --"))
    }

    /// Issue 12/14, session 7: the sync-write queue's bounds are `serve` options, with their
    /// defaults in `--help`.
    @Test func serveHelpDocumentsTheSyncQueueBounds() async throws {
        let result = try await TandemProcess.run(["serve", "--help"])
        #expect(result.status == 0)
        // The help wraps at the terminal width: compare with the whitespace runs folded
        let help = result.stdoutText.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for option in [
            "--sync-queue-limit <n>", "--sync-queue-per-account <n>", "--sync-queue-wait <s>", "(default: 256)",
            "(default: 64)", "(default: 10)", "429 SYNC_BUSY with Retry-After",
        ] {
            #expect(help.contains(option), "\(option)")
        }
    }
}
