import ChatHistory
import ChatTimeline
import Foundation
import TandemBasics
import TandemMessaging
import TandemProfile
import TandemTesting
import TestSupport
import Testing

/// Issue 50 item 9: a profile directory is 0700 and every file in it 0600, whether Tandem made it
/// or found it looser.
@Suite struct ProfilePermissionTests {
    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber).intValue
    }

    /// Every file in `directory` with a mode other than 0600, with its mode in octal.
    static func looseFiles(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted().compactMap { name in
            let mode = try Self.mode(directory.appendingPathComponent(name).path)
            return mode == 0o600 ? nil : "\(name) \(String(mode, radix: 8))"
        }
    }

    @Test func everyFileAFreshProfileWritesIsOwnerOnly() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        // A permissive umask, as on many desktops: files would be 0644 without care.
        let previous = umask(0o022)
        defer { umask(previous) }
        let profile = Profile(directory: scratch.url.appendingPathComponent("fresh"), clock: ManualClock())
        try profile.createWalletKey()
        let history = try profile.openChatHistory()
        try history.save(
            StoredMessage(
                id: MessageID(UUID()), conversation: ConversationID("kaspa:q"), txID: TxID("t1"), blockTime: 1,
                timestamp: 1, status: .sent, direction: .incoming, kind: .text, body: Data("hello".utf8)))
        _ = try profile.openRouting()
        _ = try profile.openContacts()
        _ = try profile.openTasks()
        try profile.rememberServer(try #require(URL(string: "http://127.0.0.1:9")))
        try RelaySyncCursors(lastEventID: "7").save(to: profile.url(.relayCursors))
        #expect(try Self.mode(profile.directory.path) == 0o700)
        #expect(try Self.looseFiles(in: profile.directory) == [])
        for file: Profile.File in [.walletKey, .chatHistory, .routing, .contacts, .tasks, .server, .relayCursors] {
            #expect(FileManager.default.fileExists(atPath: profile.url(file).path), "\(file)")
        }
    }

    @Test func aLooserProfileIsTightenedOnceAndSaysWhat() throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let profile = Profile(directory: scratch.url.appendingPathComponent("old"), clock: ManualClock())
        try FileManager.default.createDirectory(
            at: profile.directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try Data("{}".utf8).write(to: profile.url(.server))
        _ = chmod(profile.url(.server).path, 0o644)
        try Data("x".utf8).write(to: profile.url(.relayCursors))
        _ = chmod(profile.url(.relayCursors).path, 0o600)
        let link = profile.directory.appendingPathComponent("elsewhere")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: scratch.url)

        let repair = try profile.restrictPermissions()
        #expect(repair.directoryMode == 0o755)
        #expect(repair.files == [Profile.File.server.rawValue])
        #expect(try Self.mode(profile.directory.path) == 0o700)
        #expect(try Self.mode(profile.url(.server).path) == 0o600)
        #expect(try Self.mode(scratch.url.path) != 0o600, "a symbolic link is not followed")
        #expect(try profile.restrictPermissions().isEmpty)
    }
}
