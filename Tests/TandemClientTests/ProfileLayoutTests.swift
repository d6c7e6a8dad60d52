import Foundation
import TandemBasics
import TandemProfile
import TandemTesting
import TestSupport
import Testing

@Suite struct ProfileLayoutTests {
    @Test func defaultDirectoryIsTheEnvironmentVariableElseOneUserLevelPlace() {
        let home = URL(fileURLWithPath: "/home/ann")
        #expect(Profile.defaultDirectory(environment: [:], home: home).path == "/home/ann/.tandem/profile")
        #expect(
            Profile.defaultDirectory(environment: ["TANDEM_PROFILE": ""], home: home).path
                == "/home/ann/.tandem/profile")
        #expect(Profile.defaultDirectory(environment: ["TANDEM_PROFILE": "/srv/bob"], home: home).path == "/srv/bob")
    }

    @Test func everyFileHasItsOwnNameInsideTheDirectory() {
        let profile = Profile(directory: URL(fileURLWithPath: "/p"))
        let urls = Profile.File.allCases.map { profile.url($0) }
        #expect(Set(urls.map(\.path)).count == Profile.File.allCases.count)
        #expect(urls.allSatisfy { $0.deletingLastPathComponent().path == "/p" })
    }

    @Test func opensEveryStoreInItsFileAndTheIdentityOnce() throws {
        // Given a fresh profile directory that does not exist yet
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let profile = Profile(directory: dir.url.appendingPathComponent("fresh"), clock: ManualClock())

        // When every store is opened
        _ = try profile.openRouting()
        _ = try profile.openChatHistory()
        _ = try profile.openContacts()
        let tasks = try profile.openTasks()

        // Then each lives in its own file, the directory is private, and the identity is stable
        for file: Profile.File in [.routing, .chatHistory, .contacts, .tasks, .identityKey, .deviceID] {
            #expect(FileManager.default.fileExists(atPath: profile.url(file).path), "\(file)")
        }
        let mode = try FileManager.default.attributesOfItem(atPath: profile.directory.path)[.posixPermissions]
        #expect((mode as? NSNumber)?.intValue == 0o700)
        #expect(try profile.openTasks().identity.userID == tasks.identity.userID)
    }
}
