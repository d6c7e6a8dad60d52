import Foundation
import GRDB
import RedoApp
import TandemBasics
import TandemTesting
import TaskStore
import Testing

@Suite struct TaskPresetsTests {
    static func replica(_ origin: String, seed: UInt64) throws -> TaskPresets {
        let random = Locked(SeededRandom(seed: seed))
        return TaskPresets(
            log: try TaskLog(writer: DatabaseQueue()), origin: origin,
            randomBytes: { count in
                random.withLock { g in (0..<count).map { _ in UInt8.random(in: 0...255, using: &g) } }
            })
    }

    @Test func saveListRenameDeleteAndTheirErrors() throws {
        let presets = try Self.replica("device-a", seed: 1)
        let urgent = TaskQuery(priorityMin: 5, sort: .due)
        try presets.save(name: "  urgent ", query: urgent, now: UnixMillis(1_000))
        try presets.save(name: "all", query: TaskQuery(status: .all), now: UnixMillis(1_000))
        #expect(try presets.list().map(\.name) == ["all", "urgent"])
        #expect(try presets.preset(named: "urgent")?.query == urgent)
        // Saving a name again replaces the query under the same id, with a later stamp.
        let first = try #require(try presets.preset(named: "urgent"))
        let again = try presets.save(name: "urgent", query: TaskQuery(priorityMin: 4), now: UnixMillis(500))
        #expect(again.id == first.id)
        #expect(again.stamp > first.stamp)  // the clock never goes back
        try presets.rename("urgent", to: "hot", now: UnixMillis(2_000))
        #expect(try presets.list().map(\.name) == ["all", "hot"])
        #expect(throws: TaskPresetError.exists("all")) { try presets.rename("hot", to: "all", now: UnixMillis(3_000)) }
        #expect(throws: TaskPresetError.unknown("urgent")) {
            try presets.rename("urgent", to: "x", now: UnixMillis(3_000))
        }
        #expect(throws: TaskPresetError.invalidName("must not be empty")) {
            try presets.save(name: " ", query: TaskQuery(), now: UnixMillis(3_000))
        }
        #expect(throws: TaskPresetError.invalidName("must be one line")) {
            try presets.save(name: "a\nb", query: TaskQuery(), now: UnixMillis(3_000))
        }
        try presets.delete(named: "hot", now: UnixMillis(4_000))
        #expect(try presets.list().map(\.name) == ["all"])
        #expect(throws: TaskPresetError.unknown("hot")) { try presets.delete(named: "hot", now: UnixMillis(5_000)) }
        // The deleted record stays, as a tombstone to sync.
        #expect(try presets.allRecords().filter(\.deleted).count == 1)
        #expect(try presets.outgoing().count == 2)
    }

    /// Replicas that exchange records in any order end with the same records and the same list.
    @Test("replicas converge whatever the order of exchanges", arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func replicasConverge(seed: UInt64) throws {
        let replicas = try (0..<3).map { try Self.replica("device-\($0)", seed: seed * 10 + UInt64($0)) }
        var random = SeededRandom(seed: seed)
        let names = ["work", "home", "urgent", "later"]
        var clock: Int64 = 1_000
        var versions: [String: Int64] = [:]
        for _ in 0..<200 {
            let replica = replicas.randomElement(using: &random)!
            clock += Int64.random(in: -300...1_000, using: &random)  // clocks disagree
            let now = UnixMillis(clock)
            let name = names.randomElement(using: &random)!
            switch Int.random(in: 0..<5, using: &random) {
            case 0, 1:
                try replica.save(
                    name: name, query: TaskQuery(priorityMin: Int64.random(in: 1...5, using: &random)), now: now)
            case 2: _ = try? replica.rename(name, to: names.randomElement(using: &random)!, now: now)
            case 3: try? replica.delete(named: name, now: now)
            default:
                // Another replica's records arrive, in a random order, each at a new version.
                let source = replicas.randomElement(using: &random)!
                for record in try source.allRecords().shuffled(using: &random) {
                    versions[record.id, default: 0] += 1
                    try replica.merge(record, version: versions[record.id]!)
                }
            }
        }
        // Everyone hears everything, twice round.
        for _ in 0..<2 {
            for source in replicas {
                for target in replicas where target.origin != source.origin {
                    for record in try source.allRecords() {
                        versions[record.id, default: 0] += 1
                        try target.merge(record, version: versions[record.id]!)
                    }
                }
            }
        }
        let expected = try replicas[0].allRecords()
        #expect(!expected.isEmpty)
        for replica in replicas {
            #expect(try replica.allRecords() == expected)
            #expect(try replica.list() == replicas[0].list())
            for name in Set(try replica.list().map(\.name)) {
                #expect(try replica.list().filter { $0.name == name }.count == 1)
            }
        }
    }

    @Test func aRenameDeletesTheOtherRecordsOfTheOldName() throws {
        let phone = try Self.replica("device-a", seed: 3)
        let laptop = try Self.replica("device-b", seed: 4)
        // Both save "work" before they sync: two live records of one name.
        try phone.save(name: "work", query: TaskQuery(priorityMin: 2), now: UnixMillis(1_000))
        try laptop.save(name: "work", query: TaskQuery(priorityMin: 3), now: UnixMillis(2_000))
        for record in try laptop.allRecords() { try phone.merge(record, version: 1) }
        #expect(try phone.allRecords().filter { !$0.deleted }.count == 2)
        try phone.rename("work", to: "office", now: UnixMillis(3_000))
        #expect(try phone.list().map(\.name) == ["office"])
        #expect(try phone.preset(named: "office")?.query == TaskQuery(priorityMin: 3))
        #expect(try phone.allRecords().filter { !$0.deleted }.count == 1)
        // The server holds a record this build cannot read at version 7: a local change to it
        // is pushed over version 7, an unchanged copy is not pushed.
        let office = try #require(try phone.preset(named: "office"))
        try phone.pushed(office, version: 2)
        try phone.serverHolds(office.id, version: 7)
        #expect(try phone.outgoing().filter { $0.preset.id == office.id }.isEmpty)
        try phone.rename("office", to: "desk", now: UnixMillis(4_000))
        #expect(try phone.outgoing().first { $0.preset.id == office.id }?.baseVersion == 7)
    }

    @Test func aMergeKeepsTheWinnerAndMarksWhatToPush() throws {
        let presets = try Self.replica("device-a", seed: 9)
        let mine = try presets.save(name: "work", query: TaskQuery(priorityMin: 2), now: UnixMillis(5_000))
        // An older remote version of the same record loses, and the local one is to be pushed
        // over the server's version.
        var older = mine
        older.stamp = 1_000
        older.origin = "device-b"
        older.name = "old"
        try presets.merge(older, version: 3)
        #expect(try presets.list().map(\.name) == ["work"])
        #expect(try presets.outgoing().map(\.baseVersion) == [3])
        // Pushed: clean.
        try presets.pushed(mine, version: 4)
        #expect(try presets.outgoing().isEmpty)
        // A newer remote version wins, and moves the clock past its stamp.
        var newer = mine
        newer.stamp = 90_000
        newer.origin = "device-b"
        newer.deleted = true
        try presets.merge(newer, version: 5)
        #expect(try presets.list().isEmpty)
        #expect(try presets.outgoing().isEmpty)
        let next = try presets.save(name: "home", query: TaskQuery(), now: UnixMillis(6_000))
        #expect(next.stamp == 90_001)
    }
}
