import Foundation
import TestSupport
import Testing

/// Issue 50 item 9: the PostgreSQL URL need not be on the command line, where `ps` shows it to
/// every user of the machine: `--database-url-file` and `DATABASE_URL` give it too, and every
/// mistake in one names its source without the password.
@Suite(.serialized) struct DatabaseURLSourceCLITests {
    static let leaked = "mysql://tandem:hunter2-pw@db/tandem"

    @Test func aBadURLFromAFileOrTheEnvironmentIsOneLineNamingItsSourceWithoutThePassword() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("database-url")
        try Data((Self.leaked + "\n").utf8).write(to: file)
        let data = ["--data-dir", directory.url.path, "--port", "0"]
        let cases: [(arguments: [String], environment: [String: String], source: String)] = [
            (["serve", "--database-url-file", file.path] + data, [:], "--database-url-file"),
            (["serve"] + data, ["DATABASE_URL": Self.leaked], "DATABASE_URL"),
            (
                ["admin", "import-betterauth", file.path, "--data-dir", directory.url.path],
                ["DATABASE_URL": Self.leaked], "DATABASE_URL"
            ),
            (["serve", "--database-url-file", "/nonexistent/url"] + data, [:], "/nonexistent/url"),
            (
                ["serve", "--database-url-file", file.path, "--database-url", "postgres://x@y/z"] + data, [:],
                "one of --database-url and --database-url-file"
            ),
        ]
        for (arguments, environment, source) in cases {
            let result = try await TandemProcess.run(arguments, environment: environment)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderrText)")
            #expect(result.stderrText.contains(source), "\(arguments): \(result.stderrText)")
            #expect(!result.stderrText.contains("hunter2"), "\(result.stderrText)")
        }
    }

    @Test func anEmptyDatabaseURLIsSQLite() async throws {
        let server = try await ServerProcess.start(environment: ["DATABASE_URL": ""])
        let file = server.dataDirectory.url.appendingPathComponent("tandem.sqlite")
        #expect(FileManager.default.fileExists(atPath: file.path))
        #expect(await server.stopped() == 0)
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["POSTGRES_URL"] != nil, "PostgreSQL only: set POSTGRES_URL"))
    func theURLFromAFileOrTheEnvironmentOpensPostgreSQL() async throws {
        for viaFile in [true, false] {
            try await RelayBackend.postgres.withDatabase { url in
                let databaseURL = try #require(url)
                let data = try TemporaryDirectory()
                let file = data.url.appendingPathComponent("database-url")
                try Data((databaseURL + "\n").utf8).write(to: file)
                let server = try await ServerProcess.start(
                    dataDirectory: data, extraArguments: viaFile ? ["--database-url-file", file.path] : [],
                    environment: viaFile ? [:] : ["DATABASE_URL": databaseURL])
                let tables = try await RelayBackend.psql(
                    databaseURL, "SELECT count(*) FROM information_schema.tables WHERE table_name = 'auth_user'")
                #expect(tables == "1", "the server migrated the PostgreSQL database (via file: \(viaFile))")
                #expect(!FileManager.default.fileExists(atPath: data.url.appendingPathComponent("tandem.sqlite").path))
                #expect(await server.stopped() == 0)
            }
        }
    }
}

/// Issue 50 item 9: a profile others could read is made private by the first command that opens
/// it, which says so in one line on stderr; the command's own output is unchanged.
@Suite struct ProfilePermissionCLITests {
    @Test func aLooseProfileIsTightenedWithOneLineOnce() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let profile = scratch.url.appendingPathComponent("profile").path
        #expect(try await TandemProcess.run("keys", "new", "--profile", profile).status == 0)
        _ = chmod(profile, 0o755)
        _ = chmod(profile + "/wallet.seed", 0o644)
        let first = try await TandemProcess.run("keys", "show", "--json", "--profile", profile)
        #expect(first.status == 0, "\(first.stderrText)")
        #expect(first.stderrLines.count == 1)
        #expect(first.stderrText.contains("was not private"), "\(first.stderrText)")
        #expect(first.stderrText.contains("755"))
        #expect(try JSONSerialization.jsonObject(with: first.stdout) is [String: Any])
        let attributes = try FileManager.default.attributesOfItem(atPath: profile + "/wallet.seed")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let second = try await TandemProcess.run("keys", "show", "--json", "--profile", profile)
        #expect(second.stderrText.isEmpty)
    }
}
