import Foundation
import SecretFiles
import TaskStore
import Testing

/// A profile's key files appear whole or not at all: `SecretFile.createExclusively` names a
/// complete, fsynced temporary file with `link(2)`, so a process killed mid-creation can no
/// longer leave an empty identity key that breaks every later command (issue 14 item 4).
@Suite struct SecretFileCreationTests {
    @Test func exclusiveCreationLeavesOnlyTheWholeFileAndNeverOverwrites() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        let key = profile.url.appendingPathComponent("key")
        // When a file is created, then created again
        try SecretFile.createExclusively(key, contents: Data("first\n".utf8))
        #expect(throws: SecretFileError.exists(path: key.path)) {
            try SecretFile.createExclusively(key, contents: Data("second\n".utf8))
        }
        // Then it holds the first contents, mode 0600, and no temporary file is left beside it
        #expect(try String(contentsOf: key, encoding: .utf8) == "first\n")
        let mode = try FileManager.default.attributesOfItem(atPath: key.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: profile.url.path) == ["key"])
    }

    @Test func whatAKilledCreationLeavesDoesNotBreakTheNextStart() throws {
        let profile = try TemporaryProfile()
        defer { profile.remove() }
        // Given what a process killed while creating the identity now leaves: a partial hidden
        // temporary file, and no key file
        let keyFile = profile.url.appendingPathComponent("redo-key")
        let deviceFile = profile.url.appendingPathComponent("device")
        try Data("0a1b".utf8).write(to: profile.url.appendingPathComponent(".redo-key.killed.tmp"))
        // When the next command loads the identity, Then it is created whole and loads again unchanged
        let first = try ProfileIdentity.loadOrCreate(keyFile: keyFile, deviceFile: deviceFile)
        let again = try ProfileIdentity.loadOrCreate(keyFile: keyFile, deviceFile: deviceFile)
        #expect(first.key.publicKey == again.key.publicKey)
        #expect(try String(contentsOf: keyFile, encoding: .utf8).utf8.count == 65)
    }
}
