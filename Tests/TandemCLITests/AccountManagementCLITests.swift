import Foundation
import TestSupport
import Testing

/// `tandem account sessions|revoke|passwd|update|delete` against a real `tandem serve`
/// (issue 13 item 4), each command a new process; passwords only on standard input.
@Suite(.serialized) struct AccountManagementCLITests {
    static let password = "a long enough password"

    @Test func sessionsRevokePasswdUpdateAndDeleteAgainstTheRealServer() async throws {
        let server = try await ServerProcess.start(extraArguments: ["--no-rate-limit"])
        defer { server.stop() }
        let laptop = ["--server", server.baseURL, "--profile", try TandemProcess.temporaryDirectory().path]
        let phone = ["--server", server.baseURL, "--profile", try TandemProcess.temporaryDirectory().path]

        // Given one account signed in on two devices
        let register = try await TandemProcess.run(
            [
                "account", "register", "--username", "sol", "--email", "sol@example.com", "--name", "Sol",
                "--password-stdin",
            ]
                + laptop, stdin: Data("\(Self.password)\n".utf8))
        #expect(register.status == 0, "\(register.stderrText)")
        let login = try await TandemProcess.run(
            ["account", "login", "--username", "sol", "--password-stdin"] + phone, stdin: Data(Self.password.utf8))
        #expect(login.status == 0, "\(login.stderrText)")

        // When the laptop lists the sessions, it sees both and marks its own
        let sessions = try await TandemProcess.run(["account", "sessions", "--json"] + laptop)
        #expect(sessions.status == 0, "\(sessions.stderrText)")
        let rows = try #require(try JSONSerialization.jsonObject(with: sessions.stdout) as? [[String: Any]])
        #expect(rows.count == 2)
        #expect(rows.filter { $0["current"] as? Bool == true }.count == 1)
        let phoneSession = try #require(rows.first { $0["current"] as? Bool == false }?["id"] as? String)

        // Then revoking the phone's session signs the phone out
        let revoke = try await TandemProcess.run(["account", "revoke", phoneSession] + laptop)
        #expect(revoke.status == 0, "\(revoke.stderrText)")
        #expect(try await TandemProcess.run(["account", "whoami"] + phone).status == 1)

        // A password change (current and new on stdin) ends the other sessions
        let relogin = try await TandemProcess.run(
            ["account", "login", "--username", "sol", "--password-stdin"] + phone, stdin: Data(Self.password.utf8))
        #expect(relogin.status == 0, "\(relogin.stderrText)")
        let passwd = try await TandemProcess.run(
            ["account", "passwd", "--password-stdin"] + laptop,
            stdin: Data("\(Self.password)\na newer long password\n".utf8))
        #expect(passwd.status == 0, "\(passwd.stderrText)")
        #expect(try await TandemProcess.run(["account", "whoami"] + phone).status == 1)
        #expect(try await TandemProcess.run(["account", "whoami"] + laptop).status == 0)
        let old = try await TandemProcess.run(
            ["account", "login", "--username", "sol", "--password-stdin"] + phone, stdin: Data(Self.password.utf8))
        #expect(old.status == 1)
        #expect(old.stderrLines.count == 1)

        // update --name changes the name whoami shows
        let update = try await TandemProcess.run(["account", "update", "--name", "Sol Q"] + laptop)
        #expect(update.status == 0, "\(update.stderrText)")
        let whoami = try await TandemProcess.run(["account", "whoami", "--json"] + laptop)
        let who = try #require(try JSONSerialization.jsonObject(with: whoami.stdout) as? [String: Any])
        #expect((who["user"] as? [String: Any])?["name"] as? String == "Sol Q")

        // delete needs --yes with --password-stdin, then removes the account
        let unconfirmed = try await TandemProcess.run(
            ["account", "delete", "--password-stdin"] + laptop, stdin: Data("a newer long password\n".utf8))
        #expect(unconfirmed.status == 1)
        #expect(unconfirmed.stderrLines.count == 1)
        let delete = try await TandemProcess.run(
            ["account", "delete", "--password-stdin", "--yes"] + laptop, stdin: Data("a newer long password\n".utf8))
        #expect(delete.status == 0, "\(delete.stderrText)")
        let gone = try await TandemProcess.run(
            ["account", "login", "--username", "sol", "--password-stdin"] + phone,
            stdin: Data("a newer long password".utf8))
        #expect(gone.status == 1)
        #expect(gone.stderrText.contains("INVALID_USERNAME_OR_PASSWORD"))
        #expect(await server.stopped() == 0)
    }

    @Test func revokeNeedsExactlyOneTargetAndPasswdNeverReadsATerminalInTests() async throws {
        let common = ["--server", "http://127.0.0.1:9", "--profile", try TandemProcess.temporaryDirectory().path]
        let neither = try await TandemProcess.run(["account", "revoke"] + common)
        #expect(neither.status != 0)
        let both = try await TandemProcess.run(["account", "revoke", "s1", "--others"] + common)
        #expect(both.status != 0)
        let passwd = try await TandemProcess.run(["account", "passwd"] + common, stdin: Data())
        #expect(passwd.status == 1)
        #expect(passwd.stderrText.contains("--password-stdin"))
    }
}
