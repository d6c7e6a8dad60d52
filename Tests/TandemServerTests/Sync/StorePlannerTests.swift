import Foundation
import TandemBasics
import Testing

@testable import TandemServer
@testable import TandemServerStore

/// The storage rules written once for both backends (issue 26 item 2), without a database: each
/// backend reads the facts, a planner decides, the backend writes the plan. The contract suite
/// runs the same rules through both backends.
@Suite struct StorePlannerTests {
    static let alice = AccountID("alice")
    static let bob = AccountID("bob")
    static let now = UnixMillis(1_800_000_000_000)

    @Test func aNewDeviceKeyIsBoundAndAKnownOneIsAnsweredAsStored() {
        let new = DeviceKeyPlanner.register(publicKey: "k1", account: Self.alice, now: Self.now, stored: nil)
        let bound = StoredDeviceKey(publicKey: "k1", userID: Self.alice, createdAt: Self.now, revokedAt: nil)
        #expect(new.outcome == .registered(bound))
        #expect(new.insert == bound)

        let again = DeviceKeyPlanner.register(
            publicKey: "k1", account: Self.alice, now: Self.now.advanced(by: .seconds(5)), stored: bound)
        #expect(again.outcome == .existing(bound))
        #expect(again.insert == nil)

        let taken = DeviceKeyPlanner.register(publicKey: "k1", account: Self.bob, now: Self.now, stored: bound)
        #expect(taken.outcome == .ownedByAnotherAccount)
        #expect(taken.insert == nil)

        let revoked = StoredDeviceKey(
            publicKey: "k1", userID: Self.alice, createdAt: Self.now, revokedAt: Self.now.advanced(by: .seconds(1)))
        #expect(
            DeviceKeyPlanner.register(publicKey: "k1", account: Self.alice, now: Self.now, stored: revoked).outcome
                == .revoked)
    }

    @Test func revokingWritesOnceAndOnlyTheOwnersKey() {
        let live = StoredDeviceKey(publicKey: "k1", userID: Self.alice, createdAt: Self.now, revokedAt: nil)
        let later = Self.now.advanced(by: .seconds(60))
        let first = DeviceKeyPlanner.revoke(account: Self.alice, now: later, stored: live)
        #expect(first.revokeAt == later)
        #expect(first.answer?.revokedAt == later)
        // Idempotent: a revoked key is answered as stored, with nothing to write
        let second = DeviceKeyPlanner.revoke(
            account: Self.alice, now: later.advanced(by: .seconds(1)), stored: first.answer)
        #expect(second.revokeAt == nil)
        #expect(second.answer == first.answer)
        // Another account's key, or none, is not found
        #expect(DeviceKeyPlanner.revoke(account: Self.bob, now: later, stored: live).answer == nil)
        #expect(DeviceKeyPlanner.revoke(account: Self.alice, now: later, stored: nil).answer == nil)
    }

    @Test func contactRecordsAreSwappedAllOrNothingInRequestOrder() {
        func draft(_ id: String, _ base: Int64) -> SealedRecordDraft {
            SealedRecordDraft(id: id, box: Data(id.utf8), baseVersion: base)
        }
        // Given r1 at version 2 and a clock at 10
        let stored: [String: Int64] = ["r1": 2]
        // A stale base or a new record claiming a base conflicts, and nothing is written
        let conflict = SealedRecordPutPlan.plan(
            [draft("r1", 1), draft("r2", 0), draft("r3", 4)], stored: stored, clock: 10)
        #expect(conflict.outcome == .conflict(["r1", "r3"]))
        #expect(conflict.writes.isEmpty)
        #expect(conflict.clock == 10)
        // Otherwise each draft takes the next position; an id named twice keeps its last write
        let written = SealedRecordPutPlan.plan(
            [draft("r1", 2), draft("r2", 0), draft("r1", 2)], stored: stored, clock: 10)
        #expect(written.outcome == .written([3, 1, 3]))
        #expect(written.writes.map(\.id) == ["r2", "r1"])
        #expect(written.writes.map(\.position) == [12, 13])
        #expect(written.writes.map(\.version) == [1, 3])
        #expect(written.clock == 13)
    }

    @Test func onlyAReaderSharesAndTheRecipientGetsEveryNodeInOrder() {
        #expect(
            TaskSharePlan.decide(sharer: Self.bob, recipient: Self.alice, readers: ["alice"], trusted: true)
                == .notFound)
        #expect(
            TaskSharePlan.decide(sharer: Self.alice, recipient: Self.bob, readers: ["alice", "bob"], trusted: false)
                == .alreadyShared)
        #expect(
            TaskSharePlan.decide(sharer: Self.alice, recipient: Self.bob, readers: ["alice"], trusted: true) == .added)
        #expect(
            TaskSharePlan.decide(sharer: Self.alice, recipient: Self.bob, readers: ["alice"], trusted: false)
                == .invited)
        let plan = TaskSharePlan.added(
            recipient: Self.bob, nodes: [(id: "n1", position: 3), (id: "n2", position: 9), (id: "n3", position: 20)],
            clock: 40)
        #expect(plan.grant)
        #expect(plan.feed.map(\.position) == [41, 42, 43])
        #expect(plan.feed.map(\.nodeID) == ["n1", "n2", "n3"])
        #expect(plan.feed.map(\.nodePosition) == [3, 9, 20])
        #expect(plan.feed.allSatisfy { $0.userID == "bob" })
        #expect(plan.clock == 43)
    }

    @Test func kasiaPositionsNeverGoBackAndNeverFallBehindTheClock() {
        var positions = KasiaPositions(last: nil)
        #expect(positions.take(at: UnixMillis(1_000)) == 1_000)
        // Two rows in the same millisecond, and a clock that went backwards, still move forward
        #expect(positions.take(at: UnixMillis(1_000)) == 1_001)
        #expect(positions.take(at: UnixMillis(900)) == 1_002)
        // A clock ahead of the last position is followed
        #expect(positions.next(at: UnixMillis(5_000)) == 5_000)
        #expect(positions.last == 1_002)
        #expect(positions.take(at: UnixMillis(5_000)) == 5_000)
    }
}
