import Crypto
import Foundation
import KaspaCrypto
import RedoApp
import RedoProtocol
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemMessaging
import TandemProfile
import TandemSync
import TaskStore
import TestSupport
import Testing

/// Saved task filters between two devices of one account, through a real `tandem serve`
/// (issue 27 item 3): a rename on one and a delete on the other end the same on both.
@Suite(.serialized) struct PresetSyncTests {
    @Test(arguments: RelayBackend.available)
    func aRenameAndADeleteConverge(backend: RelayBackend) async throws {
        try await backend.withDatabase { databaseURL in try await renameAndDelete(databaseURL) }
    }

    @Test(arguments: RelayBackend.available)
    func aDeviceWithoutTheWalletGetsTheKeyFromOneWithIt(backend: RelayBackend) async throws {
        try await backend.withDatabase { databaseURL in try await keyFromAnotherDevice(databaseURL) }
    }

    /// The account's presets key (issue 28): a device with no wallet key (as a browser) publishes
    /// its slot, waits, and reads and writes the presets once a wallet device has wrapped the key
    /// for it; a record sealed before issue 28 (with the wallet key) is read and sealed again.
    func keyFromAnotherDevice(_ databaseURL: String?) async throws {
        let server = try await SyncConvergenceTests.startServer(databaseURL: databaseURL)
        defer { server.stop() }
        let url = server.url
        let walletKey = PrivateKey.generate()
        let phone = try await SyncDevice(server: url, username: "anna", walletKey: walletKey, signUp: true)
        let directory = try TemporaryDirectory()
        defer {
            phone.directory.remove()
            directory.remove()
        }
        let tablet = Profile(directory: directory.url)
        _ = try await AccountClient(server: url, profile: tablet, transport: URLSessionTransport())
            .signIn(username: "anna", password: SyncDevice.password)
        let tabletPresets = try tablet.openTaskPresets()
        func at(_ minutes: Int64) -> UnixMillis { UnixMillis(1_800_000_000_000 + minutes * 60_000) }

        // A record as issue 27 sealed it: ChaCha20-Poly1305 under a key derived from the wallet.
        let legacyID = String(repeating: "ab", count: 32)
        let legacyKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: walletKey.rawRepresentation),
            salt: Data("tandem.tasks.presets.sync".utf8),
            info: Data("tandem task presets sync v1: record sealing key".utf8), outputByteCount: 32)
        let plaintext =
            #"{"deleted":false,"name":"old","origin":"device-1","query":{"sort":"due"},"stamp":1800000000000,"v":1}"#
        let legacyBox = try ChaChaPoly.seal(Data(plaintext.utf8), using: legacyKey, authenticating: Data(legacyID.utf8))
        let client = AccountClient(server: url, profile: phone.profile, transport: URLSessionTransport())
        _ = try await client.putPresetRecords([
            ContactRecordWrite(id: legacyID, box: legacyBox.combined.base64EncodedString(), baseVersion: 0)
        ])

        try phone.presets.save(name: "work", query: TaskQuery(search: "report", sort: .due), now: at(1))
        let first = try await phone.presetSync().run()
        #expect(first.resealed == 1 && !first.waitingForKey)
        #expect(try phone.presets.list().map(\.name) == ["old", "work"])

        // The tablet has no key yet: its slot goes up, its presets wait.
        let waiting = try await tablet.presetSync(server: url).run()
        #expect(waiting.waitingForKey)
        #expect(try tabletPresets.list().isEmpty)
        let stillWaiting = try await tablet.presetSync(server: url).run()
        #expect(stillWaiting.waitingForKey)

        // The phone wraps the key for the tablet's slot; the tablet then reads every preset.
        _ = try await phone.presetSync().run()
        let ready = try await tablet.presetSync(server: url).run()
        #expect(!ready.waitingForKey)
        #expect(try tabletPresets.list().map(\.name) == ["old", "work"])
        #expect(try tabletPresets.preset(named: "old")?.query == TaskQuery(sort: .due))

        // And it writes them: a preset saved on the tablet reaches the phone.
        try tabletPresets.save(name: "home", query: TaskQuery(status: .all), now: at(2))
        _ = try await tablet.presetSync(server: url).run()
        _ = try await phone.presetSync().run()
        #expect(try phone.presets.list().map(\.name) == ["home", "old", "work"])

        // No record on the server is in the old sealing any more, and none is readable without
        // the account's key: the server holds boxes and public keys only.
        let held = try await client.presetRecords(after: nil, limit: 500).records
        let box = try #require(held.first { $0.id == legacyID }?.box)
        #expect(box != legacyBox.combined.base64EncodedString())
        #expect(
            !held.contains {
                Data(base64Encoded: $0.box).map { String(decoding: $0, as: UTF8.self) }?.contains("report") == true
            })
    }

    func syncBoth(_ first: SyncDevice, _ second: SyncDevice) async throws {
        _ = try await first.presetSync().run()
        _ = try await second.presetSync().run()
        _ = try await first.presetSync().run()
    }

    func renameAndDelete(_ databaseURL: String?) async throws {
        let server = try await SyncConvergenceTests.startServer(databaseURL: databaseURL)
        defer { server.stop() }
        let url = server.url
        let walletKey = PrivateKey.generate()
        let phone = try await SyncDevice(server: url, username: "anna", walletKey: walletKey, signUp: true)
        let laptop = try await SyncDevice(server: url, username: "anna", walletKey: walletKey, signUp: false)
        defer {
            phone.directory.remove()
            laptop.directory.remove()
        }
        func at(_ minutes: Int64) -> UnixMillis { UnixMillis(1_800_000_000_000 + minutes * 60_000) }

        let work = TaskQuery(search: "report", priorityMin: 3, sort: .due)
        try phone.presets.save(name: "work", query: work, now: at(0))
        try await syncBoth(phone, laptop)
        #expect(try laptop.presets.list().map(\.name) == ["work"])
        #expect(try laptop.presets.preset(named: "work")?.query == work)

        // Offline: the phone renames, then the laptop deletes: the later change, the delete, wins.
        try phone.presets.rename("work", to: "office", now: at(1))
        try laptop.presets.delete(named: "work", now: at(2))
        try await syncBoth(phone, laptop)
        #expect(try phone.presets.list().isEmpty)
        #expect(try laptop.presets.list().isEmpty)

        // And the other way round: a delete, then a later rename: the rename wins on both.
        try phone.presets.save(name: "home", query: TaskQuery(status: .all), now: at(3))
        try await syncBoth(phone, laptop)
        try laptop.presets.delete(named: "home", now: at(4))
        try phone.presets.rename("home", to: "house", now: at(5))
        try await syncBoth(laptop, phone)
        #expect(try phone.presets.list().map(\.name) == ["house"])
        #expect(try laptop.presets.list().map(\.name) == ["house"])
        #expect(try phone.presets.allRecords() == laptop.presets.allRecords())

        // The same name saved on both before either syncs: one preset of that name on both, the
        // later save's query; the next save cleans up the other record.
        try phone.presets.save(name: "urgent", query: TaskQuery(priorityMin: 5), now: at(6))
        try laptop.presets.save(name: "urgent", query: TaskQuery(priorityMin: 4), now: at(7))
        try await syncBoth(phone, laptop)
        #expect(try phone.presets.list() == laptop.presets.list())
        #expect(try phone.presets.preset(named: "urgent")?.query == TaskQuery(priorityMin: 4))
        try phone.presets.save(name: "urgent", query: TaskQuery(priorityMin: 3), now: at(8))
        try await syncBoth(phone, laptop)
        let urgent = try laptop.presets.allRecords().filter { $0.name == "urgent" }
        #expect(urgent.filter { !$0.deleted }.count == 1)
        #expect(try laptop.presets.preset(named: "urgent")?.query == TaskQuery(priorityMin: 3))

        // A record this build cannot read (a newer client's, or damaged) does not block the sync:
        // a change made here is pushed over the version the server holds.
        let house = try #require(try phone.presets.preset(named: "house"))
        let client = AccountClient(server: url, profile: phone.profile, transport: URLSessionTransport())
        let held = try #require(
            try await client.presetRecords(after: nil, limit: 500).records.first { $0.id == house.id })
        _ = try await client.putPresetRecords([
            ContactRecordWrite(
                id: house.id, box: Data("not a sealed box".utf8).base64EncodedString(), baseVersion: held.version)
        ])
        try phone.presets.rename("house", to: "home again", now: at(9))
        let report = try await phone.presetSync().run()
        #expect(report.unreadable == 1)
        #expect(report.pushed >= 1)
        _ = try await laptop.presetSync().run()
        #expect(try laptop.presets.list().map(\.name).contains("home again"))

        // The laptop finds tasks through the synced preset, narrowed by more filters (the
        // `tasks list --preset` of the CLI, whose printing TasksAppCLITests check).
        let created = try #require(WallTime(millisecondsSinceEpoch: 1_800_000_000_000))
        try laptop.editor.addTask(title: "Fix the roof", priority: 5, now: created)
        try laptop.editor.addTask(title: "Read", priority: 3, now: created)
        let listed = try laptop.profile.findTasks(TaskQueryOverrides(), preset: "urgent", now: created)
        #expect(listed.map(\.task.title) == ["Fix the roof", "Read"])
        let narrowed = try laptop.profile.findTasks(TaskQueryOverrides(priorityMin: 4), preset: "urgent", now: created)
        #expect(narrowed.map(\.task.title) == ["Fix the roof"])
        let unknown = #expect(throws: TaskQueryFailure.self) {
            try laptop.profile.findTasks(TaskQueryOverrides(), preset: "nope", now: created)
        }
        #expect(unknown?.description == "no preset 'nope'")
    }
}
