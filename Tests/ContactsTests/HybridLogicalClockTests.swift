import Testing

@testable import Contacts

@Suite struct HybridLogicalClockTests {
    @Test func ticksAreStrictlyIncreasingEvenWhenTheWallClockStandsStillOrGoesBack() throws {
        var clock = HybridLogicalClock(replica: try ReplicaID("a"))
        var previous = clock.tick(physicalMillis: 1_000)
        for wall in [1_000, 999, 500, 1_000, 1_001, 1_001] as [Int64] {
            let next = clock.tick(physicalMillis: wall)
            #expect(next > previous)
            previous = next
        }
    }

    @Test func aStampIssuedAfterObservingARemoteStampIsHigherWhateverTheLocalWallSays() throws {
        var ahead = HybridLogicalClock(replica: try ReplicaID("a"))
        var behind = HybridLogicalClock(replica: try ReplicaID("b"))
        let remote = ahead.tick(physicalMillis: 10 * 3_600_000)
        behind.observe(remote)
        #expect(behind.tick(physicalMillis: 1_000) > remote)
    }

    @Test func counterOverflowBorrowsTheNextMillisecond() throws {
        var clock = HybridLogicalClock(replica: try ReplicaID("a"), lastWallMillis: 5, lastCounter: .max)
        let stamp = clock.tick(physicalMillis: 5)
        #expect(stamp.wallMillis == 6 && stamp.counter == 0)
    }

    @Test func stampTextRoundTripsAndSortsLikeTheStamps() throws {
        let replica = try ReplicaID("0123abcd")
        let stamps = [
            HLCTimestamp(wallMillis: 9, counter: 65_535, replica: replica),
            HLCTimestamp(wallMillis: 10, counter: 0, replica: replica),
            HLCTimestamp(wallMillis: 1_767_225_600_000, counter: 3, replica: replica),
            HLCTimestamp.legacyFloor,
        ]
        for stamp in stamps { #expect(try HLCTimestamp(parsing: stamp.description) == stamp) }
        #expect(stamps.sorted().map(\.description) == stamps.map(\.description).sorted())
    }

    @Test(arguments: ["", "1-0000", "x-0000-a", "1-00000-a", "1-0000-A", "-1-0000-a"])
    func rejectsMalformedStampText(_ text: String) {
        #expect(throws: ContactsError.self) { try HLCTimestamp(parsing: text) }
    }
}
