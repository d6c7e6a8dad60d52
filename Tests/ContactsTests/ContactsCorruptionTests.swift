import Foundation
import GRDB
import TandemBasics
import TandemTesting
import TestSupport
import Testing

@testable import Contacts

/// A row changed on disk outside the store is ``ContactsError/corruptRow(key:reason:)``, never a
/// contact that silently disappears (issue 10 item 4).
@Suite struct ContactsCorruptionTests {
    let bob = Fixture.address(1)
    let carol = Fixture.address(2)

    /// A contacts.sqlite with Bob and Carol, damaged by `sql` through a separate connection.
    func damagedStore(_ sql: String, _ arguments: StatementArguments, in directory: TemporaryDirectory) throws
        -> ContactsStore
    {
        let path = directory.url.appendingPathComponent("contacts.sqlite").path
        do {
            let store = try ContactsStore(path: path, clock: ManualClock(UnixMillis(Fixture.epoch)))
            try store.add(bob, wallet: Fixture.wallet, alias: "Bob")
            try store.add(carol, wallet: Fixture.wallet, alias: "Carol")
        }
        let raw = try DatabaseQueue(path: path)
        try raw.write { db in try db.execute(sql: sql, arguments: arguments) }
        try raw.close()
        return try ContactsStore(path: path, clock: ManualClock(UnixMillis(Fixture.epoch)))
    }

    var bobKey: String { ContactKey(wallet: Fixture.wallet, address: bob).description }

    @Test func aStateThatIsNotARecordIsReportedByListAndLookup() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try damagedStore(
            "UPDATE contact SET state = x'01ff' WHERE address = ?", [bob.description], in: directory)
        let expected = ContactsError.corruptRow(key: bobKey, reason: "state is not a version-1 record")
        #expect(throws: expected) { try store.contacts(wallet: Fixture.wallet) }
        #expect(throws: expected) { try store.contact(bob, wallet: Fixture.wallet) }
        // The undamaged row still reads.
        #expect(try store.contact(carol, wallet: Fixture.wallet)?.alias == "Carol")
    }

    /// Before, a point lookup decoded such a state as "no contact".
    @Test func aStateThatIsNotBytesIsReportedNotTakenForAMissingContact() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try damagedStore(
            "UPDATE contact SET state = 42 WHERE address = ?", [bob.description], in: directory)
        let expected = ContactsError.corruptRow(key: bobKey, reason: "state is not a blob")
        #expect(throws: expected) { try store.contact(bob, wallet: Fixture.wallet) }
        #expect(throws: expected) { try store.rename(bob, wallet: Fixture.wallet, to: "Robert") }
        #expect(throws: expected) { try store.contacts(wallet: Fixture.wallet) }
    }

    @Test func aMergeOverADamagedRowFailsInsteadOfOverwritingIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try damagedStore(
            "UPDATE contact SET state = 'text' WHERE address = ?", [bob.description], in: directory)
        let remote = try Fixture.store(replica: "b", clock: ManualClock(UnixMillis(Fixture.epoch + 1)))
        try remote.add(bob, wallet: Fixture.wallet, alias: "Remote Bob")
        let expected = ContactsError.corruptRow(key: bobKey, reason: "state is not a blob")
        #expect(throws: expected) { try Fixture.sync(remote, to: store) }
    }

    /// A bulk merge preloads every state of the wallet with one scan; that path checks rows too.
    @Test func aBulkMergeReportsADamagedRowOfTheWallet() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try damagedStore("UPDATE contact SET state = 7 WHERE address = ?", [bob.description], in: directory)
        // Given a batch of one record of the damaged wallet and enough of another wallet to preload
        let remote = try Fixture.store(replica: "b", clock: ManualClock(UnixMillis(Fixture.epoch + 1)))
        let otherWallet = Fixture.address(201)
        try remote.add(bob, wallet: Fixture.wallet)
        for seed in 0..<(StateLookup.preloadThreshold - 1) {
            try remote.add(Fixture.address(UInt8(seed)), wallet: otherWallet)
        }
        let batch = try remote.records(wallet: Fixture.wallet) + remote.records(wallet: otherWallet)
        #expect(batch.count >= StateLookup.preloadThreshold)
        // Then the merge names the damaged row
        let expected = ContactsError.corruptRow(key: bobKey, reason: "state is not a blob")
        #expect(throws: expected) { try store.merge(batch) }
    }

    @Test func aDamagedClockStampIsReported() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try damagedStore("UPDATE meta SET value = 'garbage' WHERE key = 'hlc'", [], in: directory)
        #expect(throws: ContactsError.invalidTimestamp("garbage")) { try store.lastStamp() }
        #expect(throws: ContactsError.invalidTimestamp("garbage")) {
            try store.add(Fixture.address(3), wallet: Fixture.wallet)
        }
    }

    @Test func errorsNameTheRowAndWhatWasWrong() {
        let error = ContactsError.corruptRow(key: bobKey, reason: "state is not a blob")
        #expect(error.description == "stored contact \(bobKey): state is not a blob")
    }
}
