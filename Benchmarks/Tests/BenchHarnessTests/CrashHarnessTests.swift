import Foundation
import Testing

/// `tandem-crash` with two cycles: the real `tandem serve` SIGKILLed mid-burst and
/// restarted on the same SQLite file, and real CLI commands killed mid-write on one profile
/// (issue 14 item 4). The CI slice runs five cycles on each backend; this keeps the harness
/// itself from rotting between those runs.
@Suite struct CrashHarnessTests {
    @Test func twoCrashCyclesLoseNoAcknowledgedWrite() async throws {
        try Harness.requireBuilt("tandem")
        let output = try await Harness.run(
            "tandem-crash",
            [
                "--cycles", "2", "--local-cycles", "2", "--local-commands", "4", "--seed", "7", "--json",
            ])
        #expect(output.status == 0, "\(output.stderrText)")
        let report = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        #expect(report["backend"] as? String == "sqlite")
        #expect(report["serverCycles"] as? Int == 2)
        #expect(report["localCycles"] as? Int == 2)
        #expect(report["lost"] as? Int == 0)
        #expect((report["failures"] as? [Any])?.isEmpty == true)
        #expect(report["integrityChecks"] as? Int == 2)
        // The owner's sign-up is acknowledged before the first burst and checked after each restart.
        #expect((report["sessionsChecked"] as? Int ?? 0) >= 1)
        #expect((report["ackChecksTotal"] as? Int ?? 0) >= 2)
        let local = try #require(report["local"] as? [String: Any])
        #expect(local["commands"] as? Int == 8)
        #expect((local["integrityChecks"] as? Int ?? 0) >= 2)
        #expect(output.stderrText.contains("cycle 2/2 (sqlite)"))
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["POSTGRES_URL"] != nil, "PostgreSQL only: set POSTGRES_URL"))
    func twoCrashCyclesOnPostgreSQLLoseNoAcknowledgedWrite() async throws {
        try Harness.requireBuilt("tandem")
        let url = try #require(ProcessInfo.processInfo.environment["POSTGRES_URL"])
        let output = try await Harness.run(
            "tandem-crash",
            [
                "--cycles", "2", "--local-cycles", "0", "--database-url", url, "--seed", "7", "--json",
            ])
        #expect(output.status == 0, "\(output.stderrText)")
        let report = try #require(try JSONSerialization.jsonObject(with: output.stdout) as? [String: Any])
        #expect(report["backend"] as? String == "postgresql")
        #expect(report["serverCycles"] as? Int == 2)
        #expect(report["lost"] as? Int == 0)
        #expect(report["integrityChecks"] as? Int == 0)
    }

    @Test func crashRefusesANonPostgresURL() async throws {
        let output = try await Harness.run("tandem-crash", ["--database-url", "mysql://x", "--json"])
        #expect(output.status == 1)
        #expect(output.stderrText.hasPrefix("tandem-crash: --database-url"))
        #expect(output.stdout.isEmpty)
    }

    @Test func crashHasHelp() async throws {
        let output = try await Harness.run("tandem-crash", ["--help"])
        #expect(output.status == 0)
        #expect(output.stdoutText.contains("USAGE: tandem-crash"))
    }
}
