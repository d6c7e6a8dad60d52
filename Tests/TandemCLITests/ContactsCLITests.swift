import Foundation
import KaspaCrypto
import Testing

@Suite struct ContactsCLITests {
    struct Listed: Decodable, Equatable {
        let address: String
        let alias: String
        let addedAt: String
        let lastMessageAt: String?
        let isAutoAdded: Bool
        let notificationsMuted: Bool
        let realtimeUpdatesDisabled: Bool
        let updatedAt: String
        let isDeleted: Bool
    }

    struct MigrationReport: Decodable {
        let alreadyMigrated: Bool
        let entriesRead: Int
        let records: Int
    }

    static func address(_ seed: UInt8) throws -> String {
        let payload = (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 13 &+ Int(seed) &* 17 &+ 5) }
        return try KaspaAddress(network: .mainnet, version: .publicKey, payload: payload).description
    }

    func newProfile() async throws -> String {
        let dir = try TandemProcess.temporaryDirectory().appendingPathComponent("profile").path
        let created = try await TandemProcess.run("keys", "new", "--profile", dir)
        #expect(created.status == 0, "\(created.stderrText)")
        return dir
    }

    func run(_ arguments: String...) async throws -> TandemProcess.Output {
        try await TandemProcess.run(arguments, stdin: Data())
    }

    func list(_ profile: String, all: Bool = false) async throws -> [Listed] {
        let output = try await TandemProcess.run(
            ["contacts", "list", "--json", "--profile", profile] + (all ? ["--all"] : []))
        #expect(output.status == 0, "\(output.stderrText)")
        return try JSONDecoder().decode([Listed].self, from: output.stdout)
    }

    @Test func addRenameAndListNormaliseTheAddressAndReportTheSeedFields() async throws {
        let profile = try await newProfile()
        let bob = try Self.address(1)
        await #expect(try run("contacts", "add", bob.uppercased(), "--alias", "Bob", "--profile", profile).status == 0)
        await #expect(try run("contacts", "add", String(bob.dropFirst(6)), "--profile", profile).status == 0)
        await #expect(try run("contacts", "rename", bob, "Robert", "--profile", profile).status == 0)
        let listed = try await list(profile)
        #expect(listed.map(\.address) == [bob])
        #expect(listed.first?.alias == "Robert")
        #expect(listed.first?.isDeleted == false && listed.first?.lastMessageAt == nil)
        // Every seed field is present, `lastMessageAt` as null.
        let raw = try await run("contacts", "list", "--json", "--profile", profile).stdoutText
        for field in [
            "address", "alias", "addedAt", "lastMessageAt", "isAutoAdded", "notificationsMuted",
            "realtimeUpdatesDisabled", "updatedAt", "isDeleted",
        ] {
            #expect(raw.contains("\"\(field)\":"))
        }
    }

    @Test func kNSMuteRealtimeAndRemoveAreReflectedInTheList() async throws {
        let profile = try await newProfile()
        let bob = try Self.address(1)
        let carol = try Self.address(2)
        _ = try await run("contacts", "add", bob, "--profile", profile)
        _ = try await run("contacts", "add", carol, "--alias", "Carol", "--profile", profile)
        await #expect(try run("contacts", "set-kns", bob, "bob.kas", "--profile", profile).status == 0)
        await #expect(try run("contacts", "set-kns", carol, "carol.kas", "--profile", profile).status == 0)
        await #expect(try run("contacts", "mute", bob, "on", "--profile", profile).status == 0)
        await #expect(try run("contacts", "realtime", bob, "off", "--profile", profile).status == 0)
        let listed = try await list(profile)
        let bobRow = try #require(listed.first { $0.address == bob })
        #expect(bobRow.alias == "bob.kas" && bobRow.notificationsMuted && bobRow.realtimeUpdatesDisabled)
        #expect(listed.first { $0.address == carol }?.alias == "Carol")
        await #expect(try run("contacts", "rm", carol, "--profile", profile).status == 0)
        await #expect(try list(profile).map(\.address) == [bob])
        await #expect(try list(profile, all: true).first { $0.address == carol }?.isDeleted == true)
        await #expect(try run("contacts", "purge", "--json", "--profile", profile).stdoutText.contains("\"purged\":0"))
    }

    @Test func badInputEndsWithOneErrorLine() async throws {
        let profile = try await newProfile()
        let bad = try await run("contacts", "add", "kaspa:nonsense", "--profile", profile)
        #expect(bad.status == 1 && bad.stderrLines.count == 1 && bad.stderrText.hasPrefix("tandem: "))
        let missing = try await run("contacts", "rename", try Self.address(9), "X", "--profile", profile)
        #expect(missing.status == 1 && missing.stderrText.contains("does not exist"))
        let badSwitch = try await run("contacts", "mute", try Self.address(9), "maybe", "--profile", profile)
        #expect(badSwitch.status == 1)
    }

    @Test func migrateImportsOnceAndCollapsesDuplicates() async throws {
        let profile = try await newProfile()
        let bob = try Self.address(1)
        let file = try TandemProcess.temporaryDirectory()
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        let path = file.appendingPathComponent("legacy.json").path
        let legacy = """
            {"kachat_contacts":[
              {"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","address":"\(bob.uppercased())","alias":"Bob",
               "addedAt":700000000.5,"isAutoAdded":false,"notificationModeOverride":"off",
               "realtimeUpdatesDisabled":false,"isArchived":false,"systemContactId":"x"},
              {"id":"7F9619FF-8B86-D011-B42D-00C04FC964FF","address":"\(bob.dropFirst(6))","alias":"Bob",
               "addedAt":700000100,"lastMessageAt":700000200,"isAutoAdded":false,"notificationsMuted":false,
               "realtimeUpdatesDisabled":false,"isArchived":false}]}
            """
        try Data(legacy.utf8).write(to: URL(fileURLWithPath: path))
        let first = try await run("contacts", "migrate", "--from", path, "--json", "--profile", profile)
        #expect(first.status == 0, "\(first.stderrText)")
        let report = try JSONDecoder().decode(MigrationReport.self, from: first.stdout)
        #expect(!report.alreadyMigrated && report.entriesRead == 2 && report.records == 1)
        let second = try await JSONDecoder().decode(
            MigrationReport.self,
            from: try run("contacts", "migrate", "--from", path, "--json", "--profile", profile).stdout)
        #expect(second.alreadyMigrated)
        let listed = try await list(profile)
        #expect(listed.map(\.address) == [bob])
        #expect(listed.first?.notificationsMuted == true && listed.first?.lastMessageAt != nil)
    }

    @Test func exportedSyncRecordsConvergeAnotherDeviceOfTheSameWalletAndTamperingIsRejected() async throws {
        // Given two profiles holding the same wallet key
        let a = try await newProfile()
        let b = try TandemProcess.temporaryDirectory().appendingPathComponent("profile-b")
        try FileManager.default.createDirectory(at: b, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: a + "/wallet.seed", toPath: b.appendingPathComponent("wallet.seed").path)
        _ = try await run("contacts", "add", try Self.address(1), "--alias", "Bob", "--profile", a)
        _ = try await run("contacts", "add", try Self.address(2), "--profile", b.path)
        // When they exchange export files
        let fileA = a + "/a.sync"
        let fileB = b.path + "/b.sync"
        await #expect(try run("contacts", "export-sync", fileA, "--profile", a).status == 0)
        await #expect(try run("contacts", "export-sync", fileB, "--profile", b.path).status == 0)
        await #expect(try run("contacts", "import-sync", fileA, "--profile", b.path).status == 0)
        await #expect(try run("contacts", "import-sync", fileB, "--profile", a).status == 0)
        // Then both list the same contacts
        await #expect(try list(a) == list(b.path))
        await #expect(try list(a).count == 2)
        // And a tampered file is refused with one error line
        var data = try Data(contentsOf: URL(fileURLWithPath: fileA))
        let text = String(decoding: data, as: UTF8.self)
        let boxRange = try #require(text.range(of: "\"box\":\""))
        let at = text.distance(from: text.startIndex, to: boxRange.upperBound) + 4
        data[at] = data[at] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        try data.write(to: URL(fileURLWithPath: fileA))
        let rejected = try await run("contacts", "import-sync", fileA, "--profile", b.path)
        #expect(rejected.status == 1 && rejected.stderrText.contains("authentication failed"))
    }
}
