import Foundation
import KaspaCrypto
import Testing

/// One default profile for every command (issue 10): `tasks` and `contacts` without `--profile`
/// read and write the same directory, chosen by `TANDEM_PROFILE` or else `~/.tandem/profile`.
@Suite struct ProfileCLITests {
    static let peer = "kaspa:qpumuen7l8wthtz45p3ftn58pvrs9xlumvkuu2xet8egzkcklqtes4ypce9sf"

    func runWithout(_ arguments: [String], environment: [String: String]) async throws -> TandemProcess.Output {
        try await TandemProcess.run(arguments, environment: environment)
    }

    @Test(arguments: [true, false])
    func tasksAndContactsWithoutProfileShareOneDirectory(viaVariable: Bool) async throws {
        // Given a home directory and, in one case, TANDEM_PROFILE pointing elsewhere
        let scratch = try TandemProcess.temporaryDirectory()
        let named = scratch.appendingPathComponent("named")
        var environment = ["HOME": scratch.appendingPathComponent("home").path]
        environment["TANDEM_PROFILE"] = viaVariable ? named.path : ""
        let expected = viaVariable ? named : scratch.appendingPathComponent("home/.tandem/profile")

        // When keys, tasks and contacts run without --profile
        await #expect(try runWithout(["keys", "new"], environment: environment).status == 0)
        let added = try await runWithout(["tasks", "add", "Water the plants"], environment: environment)
        #expect(added.status == 0, "\(added.stderrText)")
        let contact = try await runWithout(["contacts", "add", Self.peer, "--alias", "Bob"], environment: environment)
        #expect(contact.status == 0, "\(contact.stderrText)")

        // Then every file is in the one default directory, and each list sees what was added
        for file in ["wallet.seed", "tasks.sqlite", "contacts.sqlite", "identity.key"] {
            #expect(FileManager.default.fileExists(atPath: expected.appendingPathComponent(file).path), "\(file)")
        }
        let tasks = try await runWithout(["tasks", "list", "--json"], environment: environment)
        #expect(tasks.stdoutText.contains("Water the plants"))
        let contacts = try await runWithout(["contacts", "list", "--json"], environment: environment)
        #expect(contacts.stdoutText.contains("\"alias\":\"Bob\""))
        let explicit = try await TandemProcess.run(["contacts", "list", "--json", "--profile", expected.path])
        #expect(explicit.stdoutText == contacts.stdoutText)
    }
}
