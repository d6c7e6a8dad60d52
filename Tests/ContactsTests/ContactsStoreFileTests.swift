import Foundation
import GRDB
import TandemBasics
import TandemTesting
import TestSupport
import Testing

@testable import Contacts

@Suite struct ContactsStoreFileTests {
    @Test func aReopenedStoreKeepsItsReplicaAndNeverIssuesALowerStamp() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("contacts.sqlite").path
        let bob = Fixture.address(1)
        // Given a store whose clock ran far ahead
        let first = try ContactsStore(path: path, clock: ManualClock(UnixMillis(Fixture.epoch + Fixture.day)))
        try first.add(bob, wallet: Fixture.wallet, alias: "Ahead")
        let before = try #require(try first.lastStamp())
        // When it is reopened with a clock a day behind and edits again
        let second = try ContactsStore(path: path, clock: ManualClock(UnixMillis(Fixture.epoch)))
        try second.rename(bob, wallet: Fixture.wallet, to: "Later")
        // Then the replica id is the same and the new stamp is higher
        #expect(second.replica == first.replica)
        let record = try #require(try second.record(for: ContactKey(wallet: Fixture.wallet, address: bob)))
        #expect(record.payload.userAlias.stamp > before)
        #expect(record.payload.userAlias.value == "Later")
    }

    @Test func aRowDamagedOutsideTheStoreIsReportedNotTrapped() throws {
        let queue = try DatabaseQueue()
        let store = try ContactsStore(
            writer: queue, clock: ManualClock(UnixMillis(Fixture.epoch)), replica: try ReplicaID("a"))
        try store.add(Fixture.address(1), wallet: Fixture.wallet)
        try queue.write { db in try db.execute(sql: "UPDATE contact SET state = x'01ff'") }
        #expect(throws: ContactsError.self) { try store.contacts(wallet: Fixture.wallet) }
    }

    @Test func contactsOfOtherWalletsStayApart() throws {
        let store = try Fixture.store(replica: "a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let otherWallet = Fixture.address(201)
        try store.add(Fixture.address(1), wallet: Fixture.wallet, alias: "Mine")
        try store.add(Fixture.address(1), wallet: otherWallet, alias: "Theirs")
        #expect(try store.contacts(wallet: Fixture.wallet).map(\.alias) == ["Mine"])
        #expect(try store.contacts(wallet: otherWallet).map(\.alias) == ["Theirs"])
    }

    @Test func editsOfUnknownOrDeletedContactsAreRefused() throws {
        let store = try Fixture.store(replica: "a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let bob = Fixture.address(1)
        #expect(throws: ContactsError.contactNotFound(bob.description)) {
            try store.rename(bob, wallet: Fixture.wallet, to: "x")
        }
        try store.add(bob, wallet: Fixture.wallet)
        try store.remove(bob, wallet: Fixture.wallet)
        #expect(throws: ContactsError.contactDeleted(bob.description)) {
            try store.setNotificationsMuted(bob, wallet: Fixture.wallet, true)
        }
    }
}

/// The merge laws over arbitrary states, not only reachable ones.
@Suite struct ArbitraryRecordMergeTests {
    static func randomRecord(_ generator: inout SeededRandom) throws -> ContactRecord {
        let replicas = try ["a", "b", "c"].map { try ReplicaID($0) }
        func stamp() -> HLCTimestamp {
            Bool.random(using: &generator) && Bool.random(using: &generator)
                ? .legacyFloor
                : HLCTimestamp(
                    wallMillis: Int64.random(in: 0...3, using: &generator),
                    counter: UInt16.random(in: 0...2, using: &generator),
                    replica: replicas[Int.random(in: 0..<3, using: &generator)])
        }
        func text() -> String { ["", "a", "b", "x.kas"][Int.random(in: 0..<4, using: &generator)] }
        let payload = ContactPayload(
            addedAt: UnixMillis(Int64.random(in: 0...3, using: &generator)),
            lastMessageAt: Bool.random(using: &generator)
                ? nil : UnixMillis(Int64.random(in: 0...3, using: &generator)),
            userAlias: LWWRegister(text(), stamp: stamp()), knsName: LWWRegister(text(), stamp: stamp()),
            isAutoAdded: LWWRegister(Bool.random(using: &generator), stamp: stamp()),
            notificationsMuted: LWWRegister(Bool.random(using: &generator), stamp: stamp()),
            realtimeUpdatesDisabled: LWWRegister(Bool.random(using: &generator), stamp: stamp()))
        return ContactRecord(
            key: Fixture.key(1), causalLength: UInt64.random(in: 1...4, using: &generator),
            isPurged: Bool.random(using: &generator), deletedAt: stamp(), payload: payload)
    }

    @Test(arguments: Array(UInt64(1)...8))
    func mergeIsASemilatticeOnArbitraryStates(seed: UInt64) throws {
        var generator = SeededRandom(seed: seed)
        for _ in 0..<500 {
            let a = try Self.randomRecord(&generator)
            let b = try Self.randomRecord(&generator)
            let c = try Self.randomRecord(&generator)
            #expect(a.merged(with: b) == b.merged(with: a))
            #expect(a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c)))
            #expect(a.merged(with: a) == a)
        }
    }
}
