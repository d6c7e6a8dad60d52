import Foundation
import GRDB
import Testing

/// A store file damaged outside Tandem ends a command with exit status 1 and one stderr line
/// naming the damaged node or row (issue 10 item 4), never a silently shorter list.
@Suite struct CorruptStoreCLITests {
    /// Overwrites column `json`/`state` of every row of `table` in `file`.
    func damage(_ file: URL, sql: String) throws {
        let raw = try DatabaseQueue(path: file.path)
        try raw.write { db in try db.execute(sql: sql) }
        try raw.close()
    }

    @Test func aDamagedTaskNodeIsOneErrorLine() async throws {
        let directory = try TandemProcess.temporaryDirectory().appendingPathComponent("profile")
        defer { try? FileManager.default.removeItem(at: directory.deletingLastPathComponent()) }
        let common = ["--profile", directory.path, "--now", "2025-10-27T09:00:00.000Z"]
        let added = try await TandemProcess.run(["tasks", "add", "Water plants"] + common)
        #expect(added.status == 0, "\(added.stderrText)")
        // Given the CREATE node's bytes replaced on disk
        try damage(
            directory.appendingPathComponent("tasks.sqlite"),
            sql: "UPDATE node SET json = x'7b7d' WHERE seq = (SELECT MIN(seq) FROM node)")
        // Then listing fails with one line that names the node
        let listed = try await TandemProcess.run(["tasks", "list"] + common)
        #expect(listed.status == 1)
        #expect(listed.stderrLines.count == 1, "\(listed.stderrText)")
        #expect(listed.stderrText.hasPrefix("tandem: stored node sha256:"), "\(listed.stderrText)")
        #expect(listed.stderrText.contains("is corrupt"))
        #expect(listed.stdout.isEmpty)
    }

    @Test func aDamagedContactRowIsOneErrorLine() async throws {
        let profile = try TandemProcess.temporaryDirectory().appendingPathComponent("profile")
        defer { try? FileManager.default.removeItem(at: profile.deletingLastPathComponent()) }
        #expect(try await TandemProcess.run(["keys", "new", "--profile", profile.path]).status == 0)
        let bob = try ContactsCLITests.address(1)
        let added = try await TandemProcess.run(["contacts", "add", bob, "--alias", "Bob", "--profile", profile.path])
        try #require(added.status == 0, "\(added.stderrText)")
        // Given Bob's stored state replaced by bytes that are not a record
        try damage(profile.appendingPathComponent("contacts.sqlite"), sql: "UPDATE contact SET state = x'01ff'")
        // Then listing fails with one line that names the row
        let listed = try await TandemProcess.run(["contacts", "list", "--profile", profile.path])
        #expect(listed.status == 1)
        #expect(listed.stderrLines.count == 1, "\(listed.stderrText)")
        #expect(listed.stderrText.hasPrefix("tandem: stored contact "), "\(listed.stderrText)")
        #expect(listed.stderrText.contains("/\(bob): state is not a version-1 record"))
    }
}
