import Foundation
import KaspaCrypto
import TandemBasics
import TandemTesting
import Testing

@testable import Contacts

@Suite struct ContactsSyncTests {
    let walletKey = PrivateKey.generate()
    var cipher: ContactsSyncCipher { ContactsSyncCipher(walletKey: walletKey) }

    func populatedStore(_ name: String, clock: ManualClock) throws -> ContactsStore {
        let store = try Fixture.store(replica: name, clock: clock)
        try store.add(Fixture.address(1), wallet: cipher.wallet, alias: "Bob")
        try store.add(Fixture.address(2), wallet: cipher.wallet)
        try store.remove(Fixture.address(2), wallet: cipher.wallet)
        return store
    }

    @Test func twoStoresExchangingEncryptedRecordsConverge() throws {
        let clock = ManualClock(UnixMillis(Fixture.epoch))
        let a = try populatedStore("a", clock: clock)
        let b = try Fixture.store(replica: "b", clock: clock)
        try b.add(Fixture.address(3), wallet: cipher.wallet)
        try b.add(Fixture.address(1), wallet: cipher.wallet, alias: "Robert")
        // Through the serialised file, as `export-sync` / `import-sync` do.
        let fromA = try ContactSyncBundle(serialized: try a.exportSync(using: cipher).serialized())
        let fromB = try ContactSyncBundle(serialized: try b.exportSync(using: cipher).serialized())
        try b.importSync(fromA, using: cipher)
        try a.importSync(fromB, using: cipher)
        #expect(try a.records(wallet: cipher.wallet) == b.records(wallet: cipher.wallet))
        #expect(try a.records(wallet: cipher.wallet).count == 3)
    }

    @Test func theServerSeesNoAddressOrAliasInTheBlobs() throws {
        let store = try populatedStore("a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let bundle = try store.exportSync(using: cipher)
        // The sealed bytes hold no plaintext; the base64 text of random bytes may spell anything
        // ("Bob" turns up about once in 200 exports), so the boxes are checked as bytes and the
        // rest of the file as text.
        var outside = String(decoding: try bundle.serialized(), as: UTF8.self)
        for record in bundle.records {
            #expect(record.box.firstRange(of: Data("kaspa:".utf8)) == nil)
            #expect(record.box.firstRange(of: Data("Bob".utf8)) == nil)
            outside = outside.replacingOccurrences(of: record.box.base64EncodedString(), with: "")
        }
        #expect(!outside.contains("kaspa:"))
        #expect(!outside.contains("Bob"))
    }

    @Test func aFlippedBitAnywhereInABoxIsRejected() throws {
        let store = try populatedStore("a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let blob = try #require(try store.exportSync(using: cipher).records.first)
        for index in [0, 12, blob.box.count / 2, blob.box.count - 1] {
            var box = blob.box
            box[box.startIndex + index] ^= 0x01
            let tampered = ContactSyncBlob(id: blob.id, box: box)
            #expect(throws: ContactsSyncError.authenticationFailed(recordID: blob.id)) { try cipher.open(tampered) }
        }
    }

    @Test func swappingIDsBetweenBlobsIsRejected() throws {
        let store = try populatedStore("a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let blobs = try store.exportSync(using: cipher).records
        let swapped = ContactSyncBlob(id: blobs[1].id, box: blobs[0].box)
        #expect(throws: ContactsSyncError.authenticationFailed(recordID: blobs[1].id)) { try cipher.open(swapped) }
    }

    @Test func anotherWalletsKeyCannotOpenTheRecords() throws {
        let store = try populatedStore("a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        let bundle = try store.exportSync(using: cipher)
        let stranger = ContactsSyncCipher(walletKey: PrivateKey.generate())
        let target = try Fixture.store(replica: "b", clock: ManualClock(UnixMillis(Fixture.epoch)))
        #expect(throws: ContactsSyncError.self) { try target.importSync(bundle, using: stranger) }
        #expect(try target.records(wallet: cipher.wallet).isEmpty)
    }

    @Test func aTamperedBlobRejectsTheWholeImport() throws {
        let store = try populatedStore("a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        var blobs = try store.exportSync(using: cipher).records
        var box = blobs[1].box
        box[box.startIndex + 20] ^= 0x80
        blobs[1] = ContactSyncBlob(id: blobs[1].id, box: box)
        let target = try Fixture.store(replica: "b", clock: ManualClock(UnixMillis(Fixture.epoch)))
        #expect(throws: ContactsSyncError.self) {
            try target.importSync(ContactSyncBundle(records: blobs), using: cipher)
        }
        #expect(try target.records(wallet: cipher.wallet).isEmpty)
    }

    @Test func envelopesOfAnotherFormatOrVersionAreRejected() throws {
        #expect(throws: ContactsSyncError.self) { try ContactSyncBundle(serialized: Data("{}".utf8)) }
        let future = Data(#"{"format":"tandem.contacts.sync","version":2,"records":[]}"#.utf8)
        #expect(throws: ContactsSyncError.unsupportedVersion(2)) { try ContactSyncBundle(serialized: future) }
    }

    @Test func sealedRecordsRoundTripExactly() throws {
        let store = try populatedStore("a", clock: ManualClock(UnixMillis(Fixture.epoch)))
        for record in try store.records(wallet: cipher.wallet) {
            #expect(try cipher.open(try cipher.seal(record)) == record)
        }
    }
}
