import Foundation
import TandemBasics
import TandemTesting
import Testing

@testable import Contacts

/// The directly written sync plaintext equals `JSONEncoder`'s bytes (sorted keys, slashes not
/// escaped) for every record: digests remembered by an older sync state stay valid (issue 12).
@Suite struct ContactRecordWirePlaintextTests {
    static func expectSameBytes(_ record: ContactRecord) throws {
        let wire = ContactRecordWire(record)
        #expect(try wire.plaintext() == ContactRecordWire.encoderBytes(wire))
    }

    @Test(arguments: [UInt64(3), 77, 2026])
    func randomRecordsOfASimulationMatchTheEncoder(seed: UInt64) throws {
        // Given records of every kind a run of edits, deletes and purges produces
        var simulation = try ReplicaSimulation(seed: seed, replicaCount: 3)
        try simulation.run(steps: 150)
        let records = Array(simulation.allSnapshots.joined()) + Array(try simulation.states().joined())
        #expect(!records.isEmpty)
        // Then each takes the direct path and writes the encoder's bytes
        for record in records {
            #expect(ContactRecordWire(record).plainBytes() != nil)
            try Self.expectSameBytes(record)
        }
    }

    @Test func aliasesThatNeedEscapingOrAreNotASCIIFallBackToTheEncoder() throws {
        // Given aliases and KNS names with every character class the direct path declines
        let clock = ManualClock(UnixMillis(Fixture.epoch))
        let store = try Fixture.store(replica: "a", clock: clock)
        let names = ["plain", "a/b", "say \"hi\"", "back\\slash", "tab\there", "line\nbreak", "émile 😀", "", "\u{7F}"]
        for (index, name) in names.enumerated() {
            let address = Fixture.address(UInt8(index + 1))
            _ = try store.add(address, wallet: Fixture.wallet, alias: name)
            _ = try store.setKNSName(address, wallet: Fixture.wallet, to: name)
            _ = try store.setNotificationsMuted(address, wallet: Fixture.wallet, index.isMultiple(of: 2))
            if index.isMultiple(of: 3) { _ = try store.remove(address, wallet: Fixture.wallet) }
        }
        // Then every record, whichever path it takes, writes the encoder's bytes
        let records = try store.records(wallet: Fixture.wallet)
        #expect(records.count == names.count)
        for record in records { try Self.expectSameBytes(record) }
        #expect(records.filter { ContactRecordWire($0).plainBytes() == nil }.count == names.count - 3)
    }
}
