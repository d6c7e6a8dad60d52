import Foundation
import TestSupport
import Testing

/// `tandem serve` + `tandem account …` end to end, each command a new process.
@Suite(.serialized) struct AccountCLITests {
    @Test func registerLoginWhoamiLogoutWhoamiAgainstTheRealServer() async throws {
        let server = try await ServerProcess.start()
        defer { server.stop() }
        let profile = try TandemProcess.temporaryDirectory().path
        let common = ["--server", server.baseURL, "--profile", profile]

        // Given a registered account
        let register = try await TandemProcess.run(
            [
                "account", "register", "--username", "Quinn", "--email", "quinn@example.com", "--name", "Quinn Q",
                "--password-stdin",
            ] + common,
            stdin: Data("a long enough password\n".utf8))
        #expect(register.status == 0, "\(register.stderrText)")

        // When it logs in and a new process asks who is signed in
        let login = try await TandemProcess.run(
            ["account", "login", "--username", "quinn", "--password-stdin", "--json"] + common,
            stdin: Data("a long enough password\n".utf8))
        #expect(login.status == 0, "\(login.stderrText)")
        let whoami = try await TandemProcess.run(["account", "whoami", "--json"] + common)
        #expect(whoami.status == 0, "\(whoami.stderrText)")
        let who = try #require(try JSONSerialization.jsonObject(with: whoami.stdout) as? [String: Any])
        #expect(who["signedIn"] as? Bool == true)
        #expect((who["user"] as? [String: Any])?["username"] as? String == "quinn")

        // The e-mail signs in as well (issue 51 item 1), and one of the two is required
        let byEmail = try await TandemProcess.run(
            ["account", "login", "--email", "Quinn@Example.com", "--password-stdin"] + common,
            stdin: Data("a long enough password\n".utf8))
        #expect(byEmail.status == 0, "\(byEmail.stderrText)")
        #expect(byEmail.stdoutText.hasPrefix("signed in as quinn"), "\(byEmail.stdoutText)")
        let neither = try await TandemProcess.run(["account", "login", "--password-stdin"] + common)
        #expect(neither.status == 1 && neither.stderrText.contains("--username or --email"))

        // The cookie file is private to the user
        let attributes = try FileManager.default.attributesOfItem(atPath: profile + "/session-cookies.json")
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        // Then logout ends the session and whoami reports signed out
        let logout = try await TandemProcess.run(["account", "logout"] + common)
        #expect(logout.status == 0, "\(logout.stderrText)")
        let after = try await TandemProcess.run(["account", "whoami"] + common)
        #expect(after.status == 1)
        #expect(after.stderrLines.count == 1)
        #expect(after.stderrText.hasPrefix("tandem: not signed in"))
        #expect(await server.stopped() == 0)
    }

    /// Issue 26 item 5: `--server` is named at register and login only; the profile remembers it.
    @Test func theProfileRemembersTheServerItSignedInTo() async throws {
        let server = try await ServerProcess.start()
        defer { server.stop() }
        let profile = try TandemProcess.temporaryDirectory().path

        // Given an account registered with --server
        let register = try await TandemProcess.run(
            [
                "account", "register", "--username", "rae", "--email", "rae@example.com", "--name", "Rae",
                "--password-stdin", "--server", server.baseURL, "--profile", profile,
            ],
            stdin: Data("a long enough password\n".utf8))
        #expect(register.status == 0, "\(register.stderrText)")

        // Then later commands that name no server reach the same one: whoami, tasks sync, logout, login
        let whoami = try await TandemProcess.run(["account", "whoami", "--json", "--profile", profile])
        #expect(whoami.status == 0, "\(whoami.stderrText)")
        let who = try #require(try JSONSerialization.jsonObject(with: whoami.stdout) as? [String: Any])
        #expect((who["user"] as? [String: Any])?["username"] as? String == "rae")
        let sync = try await TandemProcess.run(["tasks", "sync", "--profile", profile])
        #expect(sync.status == 0, "\(sync.stderrText)")
        #expect(try await TandemProcess.run(["account", "logout", "--profile", profile]).status == 0)
        let login = try await TandemProcess.run(
            ["account", "login", "--username", "rae", "--password-stdin", "--profile", profile],
            stdin: Data("a long enough password\n".utf8))
        #expect(login.status == 0, "\(login.stderrText)")

        // And a server named on the command line wins over the remembered one
        let elsewhere = try await TandemProcess.run(
            ["account", "whoami", "--server", "http://127.0.0.1:9", "--profile", profile])
        #expect(elsewhere.status == 1)
        #expect(elsewhere.stderrLines.count == 1)
    }

    @Test func wrongPasswordAndLegacySessionAreOneLineErrors() async throws {
        let server = try await ServerProcess.start()
        defer { server.stop() }
        let profile = try TandemProcess.temporaryDirectory()
        let common = ["--server", server.baseURL, "--profile", profile.path]
        let register = try await TandemProcess.run(
            [
                "account", "register", "--username", "rhea", "--email", "rhea@example.com", "--name", "R",
                "--password-stdin",
            ] + common,
            stdin: Data("a long enough password".utf8))
        #expect(register.status == 0, "\(register.stderrText)")

        let wrong = try await TandemProcess.run(
            ["account", "login", "--username", "rhea", "--password-stdin"] + common, stdin: Data("nope\n".utf8))
        #expect(wrong.status == 1)
        #expect(wrong.stderrText.contains("INVALID_USERNAME_OR_PASSWORD"))

        // A legacy idAlias session file forces a re-login with a migration message.
        try Data(#"{"idAlias":"abc123"}"#.utf8).write(to: profile.appendingPathComponent("session.json"))
        let legacy = try await TandemProcess.run(["account", "whoami"] + common)
        #expect(legacy.status == 1)
        #expect(legacy.stderrText.contains("idAlias"))
        #expect(!FileManager.default.fileExists(atPath: profile.appendingPathComponent("session.json").path))
    }
}
