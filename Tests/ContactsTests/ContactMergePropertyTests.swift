import GRDB
import TandemBasics
import TandemTesting
import TestSupport
import Testing

@testable import Contacts

@Suite struct ContactMergePropertyTests {
    static let seeds: [UInt64] = Array(1...24)

    @Test(arguments: seeds)
    func replicasWithSkewedClocksConvergeWhateverTheDeliveryOrder(seed: UInt64) throws {
        // Given 2–4 replicas running a random history with reordered and duplicated deliveries
        var simulation = try ReplicaSimulation(seed: seed, replicaCount: 2 + Int(seed % 3))
        try simulation.run(steps: 80)
        // When everyone has heard from everyone
        try simulation.settle()
        // Then every replica holds the same records
        let states = try simulation.states()
        for state in states.dropFirst() { #expect(state == states[0]) }
    }

    @Test(arguments: seeds)
    func mergingEverySnapshotInAnyOrderWithDuplicatesGivesOneState(seed: UInt64) throws {
        var simulation = try ReplicaSimulation(seed: seed, replicaCount: 3)
        try simulation.run(steps: 80)
        try simulation.settle()
        let snapshots = simulation.allSnapshots + (try simulation.states())
        let first = simulation.shuffledWithDuplicates(snapshots)
        let second = simulation.shuffledWithDuplicates(snapshots)
        let a = try Fixture.store(replica: "fresha", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let b = try Fixture.store(replica: "freshb", clock: ManualClock(UnixMillis(Fixture.epoch)))
        for batch in first { try a.merge(batch) }
        for batch in second { try b.merge(batch) }
        #expect(try a.records(wallet: Fixture.wallet) == b.records(wallet: Fixture.wallet))
        #expect(try a.records(wallet: Fixture.wallet) == simulation.states()[0])
    }

    @Test(arguments: seeds)
    func recordMergeIsCommutativeAssociativeAndIdempotent(seed: UInt64) throws {
        var simulation = try ReplicaSimulation(seed: seed &+ 1_000, replicaCount: 4)
        try simulation.run(steps: 120)
        var byKey: [ContactKey: [ContactRecord]] = [:]
        for record in Array(simulation.allSnapshots.joined()) + Array(try simulation.states().joined()) {
            byKey[record.key, default: []].append(record)
        }
        var generator = SeededRandom(seed: seed)
        for records in byKey.values {
            for _ in 0..<40 {
                let a = records[Int.random(in: 0..<records.count, using: &generator)]
                let b = records[Int.random(in: 0..<records.count, using: &generator)]
                let c = records[Int.random(in: 0..<records.count, using: &generator)]
                #expect(a.merged(with: b) == b.merged(with: a))
                #expect(a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c)))
                #expect(a.merged(with: a) == a)
                #expect(a.merged(with: b).merged(with: b) == a.merged(with: b))
            }
        }
    }
}
