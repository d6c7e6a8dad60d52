import CanonicalJSON
import Contacts
import Foundation
import GRDB
import KaspaCrypto
import RedoApp
import RedoProtocol
import TandemAPI
import TandemAccounts
import TandemBasics
import TandemSync
import TandemTesting
import TaskStore
import TestSupport
import Testing

/// Devices of one account converge through a real `tandem serve` whatever the order of their
/// offline edits, syncs and interruptions (issue 12 "Tests").
@Suite(.serialized) struct SyncConvergenceTests {
    static func startServer(databaseURL: String?) async throws -> InProcessServer {
        try await InProcessServer.start(databaseURL: databaseURL)
    }

    /// Every seed on SQLite, and on PostgreSQL when `POSTGRES_URL` is set (each run in a scratch
    /// database of its own).
    static let seededBackends: [(RelayBackend, UInt64)] = RelayBackend.available.flatMap { backend in
        [UInt64(12), 2026].map { (backend, $0) }
    }

    /// One random offline edit on `device`.
    static func randomEdit(_ device: SyncDevice, peers: [KaspaAddress], random: inout SeededRandom, step: Int) throws {
        let now = WallTime(millisecondsSinceEpoch: 1_800_000_000_000 + Int64(step) * 60_000)!
        let tasks = try device.editor.state().tasks
        let target = tasks.randomElement(using: &random)?.taskID.description
        let peer = peers.randomElement(using: &random)!
        let presetNames = ["work", "home", "urgent"]
        let presetName = presetNames.randomElement(using: &random)!
        let presetNow = UnixMillis(1_800_000_000_000 + Int64(step) * 60_000)
        switch Int.random(in: 0..<12, using: &random) {
        case 9:
            let query = TaskQuery(priorityMin: Int64.random(in: 1...5, using: &random), sort: .due)
            try device.presets.save(name: presetName, query: query, now: presetNow)
        case 10:
            _ = try? device.presets.rename(presetName, to: presetNames.randomElement(using: &random)!, now: presetNow)
        case 11: try? device.presets.delete(named: presetName, now: presetNow)
        case 0, 1: try device.editor.addTask(title: "task \(step)", now: now)
        case 2: if let target { try device.editor.edit(target, title: "title \(step)", now: now) }
        case 3: if let target { try device.editor.complete(target, now: now) }
        case 4: if let target { try device.editor.setArchived(target, Bool.random(using: &random), now: now) }
        case 5: if let target, Int.random(in: 0..<3, using: &random) == 0 { try device.editor.delete(target, now: now) }
        case 6: _ = try device.contacts.add(ContactAddress(peer), wallet: device.wallet, alias: "alias \(step)")
        case 7: _ = try? device.contacts.rename(ContactAddress(peer), wallet: device.wallet, to: "renamed \(step)")
        default: _ = try? device.contacts.remove(ContactAddress(peer), wallet: device.wallet)
        }
    }

    /// A sync that may be cut off after a few requests; a cut-off run is fine, the next resumes.
    static func maybeInterruptedSync(_ device: SyncDevice, random: inout SeededRandom) async throws {
        let interrupt = Bool.random(using: &random)
        let transport: any HTTPTransport =
            interrupt
            ? FlakyTransport(budget: Int.random(in: 0..<6, using: &random), loseAnswers: Bool.random(using: &random))
            : URLSessionTransport()
        do {
            _ = try await device.taskSync(transport).run()
            _ = try await device.presetSync(transport).run()
            _ = try await device.contactsSync(transport).run()
        } catch let error as SyncError {
            guard interrupt, case .account(.unreachable) = error else { throw error }
        }
    }

    @Test(arguments: seededBackends)
    func devicesOfOneAccountConvergeToTheReplayOfTheUnion(backend: RelayBackend, seed: UInt64) async throws {
        try await backend.withDatabase { databaseURL in try await convergeToTheReplayOfTheUnion(databaseURL, seed) }
    }

    func convergeToTheReplayOfTheUnion(_ databaseURL: String?, _ seed: UInt64) async throws {
        let server = try await Self.startServer(databaseURL: databaseURL)
        defer { server.stop() }
        let url = server.url
        let walletKey = PrivateKey.generate()
        var devices: [SyncDevice] = []
        for index in 0..<3 {
            devices.append(
                try await SyncDevice(server: url, username: "anna", walletKey: walletKey, signUp: index == 0))
        }
        defer { for device in devices { device.directory.remove() } }
        let peers = (0..<4).map { _ in KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey) }
        var random = SeededRandom(seed: seed)

        // Random offline edits and randomly ordered, randomly interrupted syncs
        var step = 0
        for _ in 0..<6 {
            for device in devices {
                for _ in 0..<Int.random(in: 0...4, using: &random) {
                    step += 1
                    try Self.randomEdit(device, peers: peers, random: &random, step: step)
                }
            }
            for device in devices.shuffled(using: &random) where Bool.random(using: &random) {
                try await Self.maybeInterruptedSync(device, random: &random)
            }
        }
        // Then every device syncs, twice round, without interruptions
        for _ in 0..<2 {
            for device in devices {
                let report = try await device.taskSync().run()
                #expect(report.rejected.isEmpty)
                #expect(report.pending == 0)
                _ = try await device.presetSync().run()
                _ = try await device.contactsSync().run()
            }
        }

        // Every device holds the same state, equal to a replay of the union of all logs
        var union: [NodeID: RedoNode] = [:]
        for device in devices { for node in try device.editor.log.validNodes() { union[node.id] = node } }
        let expected = String(
            decoding: try CanonicalJSON.canonicalBytes(of: Replayer.replay(Array(union.values)).jsonValue),
            as: UTF8.self)
        for device in devices {
            #expect(try device.stateText() == expected)
            #expect(try device.editor.log.unsyncedCount() == 0)
        }
        // and the same contacts, equal to a merge of every device's records
        let merged = try ContactsStore(writer: DatabaseQueue(), clock: SystemClock())
        for device in devices { _ = try merged.merge(try device.contacts.records(wallet: device.wallet)) }
        let expectedContacts = try merged.contacts(wallet: devices[0].wallet, includeDeleted: true)
        for device in devices { #expect(try device.contactList() == expectedContacts) }
        // and the same presets: every record as the last writer left it, nothing left to push
        var records: [String: TaskPreset] = [:]
        for device in devices {
            for record in try device.presets.allRecords()
            where records[record.id].map({ record.supersedes($0) }) ?? true {
                records[record.id] = record
            }
        }
        let expectedRecords = records.values.sorted { $0.id < $1.id }
        for device in devices {
            #expect(try device.presets.allRecords() == expectedRecords)
            #expect(try device.presets.outgoing().isEmpty)
            #expect(try device.presets.list() == devices[0].presets.list())
        }
    }

    @Test(arguments: RelayBackend.available)
    func aSecondAccountSeesNothingUntilSharedThenBothEditAndConverge(backend: RelayBackend) async throws {
        try await backend.withDatabase { databaseURL in try await secondAccountConvergesAfterSharing(databaseURL) }
    }

    func secondAccountConvergesAfterSharing(_ databaseURL: String?) async throws {
        let server = try await Self.startServer(databaseURL: databaseURL)
        defer { server.stop() }
        let url = server.url
        let anna = try await SyncDevice(server: url, username: "anna", walletKey: .generate(), signUp: true)
        let ben = try await SyncDevice(server: url, username: "ben", walletKey: .generate(), signUp: true)
        defer {
            anna.directory.remove()
            ben.directory.remove()
        }
        let now = WallTime(millisecondsSinceEpoch: 1_800_000_000_000)!
        let task = try anna.editor.addTask(title: "water the plants", now: now)
        try anna.editor.addTask(title: "private", now: now)
        _ = try await anna.taskSync().run()

        // Ben pulls nothing
        #expect(try await ben.taskSync().run().pulled == 0)
        #expect(try ben.editor.state().tasks.isEmpty)

        // Anna shares one task; Ben is invited and, once he accepts (by a prefix of the id), gets
        // exactly that one, edits it, and Anna gets his edit
        let shared = try await anna.taskSync().share(task.taskID.description, with: "ben")
        #expect(shared.invited && !shared.added)
        _ = try await ben.taskSync().run()
        #expect(try ben.editor.state().tasks.isEmpty)
        #expect(try await ben.taskSync().invitations().map(\.title) == ["water the plants"])
        let accepted = try await ben.taskSync().answer(String(task.taskID.description.prefix(6)), accept: true)
        #expect(
            accepted == TaskInvitationAnswer(taskId: task.taskID.description, from: "anna", accepted: true, added: true)
        )
        #expect(try ben.editor.state().tasks.map(\.taskID) == [task.taskID])
        let later = WallTime(millisecondsSinceEpoch: 1_800_000_060_000)!
        try ben.editor.edit(task.taskID.description, title: "water the plants (ben)", now: later)
        try anna.editor.complete(task.taskID.description, now: later)
        for _ in 0..<2 {
            _ = try await ben.taskSync().run()
            _ = try await anna.taskSync().run()
        }
        let annas = try anna.editor.state().tasks.first { $0.taskID == task.taskID }
        let bens = try ben.editor.state().tasks.first { $0.taskID == task.taskID }
        #expect(annas?.title == "water the plants (ben)")
        #expect(annas == bens)
        #expect(try ben.editor.state().tasks.count == 1)
    }
}
