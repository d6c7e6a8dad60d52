import Foundation
import TandemBasics
import TandemTesting
import Testing

@testable import Contacts

@Suite struct LegacyMigrationTests {
    let wallet = Fixture.wallet
    let bob = Fixture.address(1)
    let carol = Fixture.address(2)
    let added = Date(timeIntervalSince1970: 1_700_000_000.25)

    func store(_ name: String = "a", at millis: Int64 = Fixture.epoch) throws -> ContactsStore {
        try Fixture.store(replica: name, clock: ManualClock(UnixMillis(millis)))
    }

    func millis(_ date: Date) -> UnixMillis { UnixMillis(Int64((date.timeIntervalSince1970 * 1000).rounded())) }

    @Test func migratesEveryFieldOfAKaChatContact() throws {
        let file = try KaChatLegacyFile.encode([
            KaChatLegacyFile.walletKey(wallet.description): [
                KaChatContact(
                    address: bob.description, alias: "Bob", addedAt: added,
                    lastMessageAt: added.addingTimeInterval(60), isAutoAdded: true,
                    notificationModeOverride: "off", realtimeUpdatesDisabled: true, isArchived: true,
                    systemContactId: "ignored")
            ]
        ])
        let store = try store()
        let report = try store.migrateLegacy(json: file, defaultWallet: Fixture.address(99))
        #expect(report.entriesRead == 1 && report.records == 1 && !report.alreadyMigrated)
        let contact = try #require(try store.contact(bob, wallet: wallet))
        #expect(contact.alias == "Bob")
        #expect(contact.addedAt == millis(added))
        #expect(contact.lastMessageAt == millis(added.addingTimeInterval(60)))
        #expect(contact.isAutoAdded && contact.notificationsMuted && contact.realtimeUpdatesDisabled)
        #expect(!contact.isDeleted)
    }

    @Test(arguments: [("off", true), ("noSound", false), ("sound", false)])
    func notificationModeOffMeansMuted(mode: String, muted: Bool) throws {
        let file = try KaChatLegacyFile.encode([
            "kachat_contacts": [
                KaChatContact(address: bob.description, alias: "", addedAt: added, notificationModeOverride: mode)
            ]
        ])
        let store = try store()
        _ = try store.migrateLegacy(json: file, defaultWallet: wallet)
        #expect(try store.contact(bob, wallet: wallet)?.notificationsMuted == muted)
    }

    @Test func theLegacyBooleanStillMutes() throws {
        let file = try KaChatLegacyFile.encode([
            "kachat_contacts": [
                KaChatContact(address: bob.description, alias: "", addedAt: added, notificationsMuted: true)
            ]
        ])
        let store = try store()
        _ = try store.migrateLegacy(json: file, defaultWallet: wallet)
        #expect(try store.contact(bob, wallet: wallet)?.notificationsMuted == true)
    }

    @Test func theUnkeyedLegacyListBelongsToTheDefaultWalletAndOtherKeysAreIgnored() throws {
        let other = Fixture.address(150)
        var data = try KaChatLegacyFile.encode([
            "kachat_contacts": [KaChatContact(address: bob.description, alias: "", addedAt: added)],
            KaChatLegacyFile.walletKey(other.description.uppercased()): [
                KaChatContact(address: carol.description, alias: "", addedAt: added)
            ],
        ])
        // An unrelated UserDefaults key sits next to them.
        data = Data(
            String(decoding: data, as: UTF8.self).replacingOccurrences(
                of: "{", with: "{\"kachat_theme\":\"dark\",",
                options: [], range: nil
            ).utf8)
        let store = try store()
        let report = try store.migrateLegacy(json: data, defaultWallet: wallet)
        #expect(report.ignoredKeys == ["kachat_theme"])
        #expect(try store.contacts(wallet: wallet).map(\.address) == [bob])
        #expect(try store.contacts(wallet: other).map(\.address) == [carol])
    }

    @Test func runningTheMigrationTwiceChangesNothing() throws {
        let file = try KaChatLegacyFile.encode([
            "kachat_contacts": [
                KaChatContact(address: bob.description, alias: "Bob", addedAt: added)
            ]
        ])
        let store = try store()
        _ = try store.migrateLegacy(json: file, defaultWallet: wallet)
        let before = try store.records(wallet: wallet)
        let second = try store.migrateLegacy(json: file, defaultWallet: wallet)
        #expect(second.alreadyMigrated && second.recordsChanged == 0)
        #expect(try store.records(wallet: wallet) == before)
    }

    @Test func aFailureMidMigrationLeavesNothingAndARetrySucceeds() throws {
        // Given a list of three contacts and a crash after the second record is written
        let file = try KaChatLegacyFile.encode([
            "kachat_contacts": [bob, carol, Fixture.address(3)].map {
                KaChatContact(address: $0.description, alias: "", addedAt: added)
            }
        ])
        struct Crash: Error {}
        let store = try store()
        #expect(throws: Crash.self) {
            try store.migrateLegacy(json: file, defaultWallet: wallet) { index in if index == 1 { throw Crash() } }
        }
        // Then no record and no flag were committed
        #expect(try store.records(wallet: wallet).isEmpty)
        #expect(try store.isLegacyMigrated() == false)
        // And a second run migrates everything
        #expect(try store.migrateLegacy(json: file, defaultWallet: wallet).records == 3)
        #expect(try store.contacts(wallet: wallet).count == 3)
        #expect(try store.isLegacyMigrated())
    }

    @Test func malformedFilesAreRejectedWithoutSettingTheFlag() throws {
        let store = try store()
        #expect(throws: LegacyMigrationError.notAnObject) {
            try store.migrateLegacy(json: Data("[1]".utf8), defaultWallet: wallet)
        }
        #expect(throws: LegacyMigrationError.valueNotArray(key: "kachat_contacts")) {
            try store.migrateLegacy(json: Data("{\"kachat_contacts\":{}}".utf8), defaultWallet: wallet)
        }
        #expect(throws: LegacyMigrationError.self) {
            try store.migrateLegacy(json: Data("{".utf8), defaultWallet: wallet)
        }
        #expect(try store.isLegacyMigrated() == false)
    }

    @Test func anUnparseableAddressIsSkippedAndReported() throws {
        let file = try KaChatLegacyFile.encode([
            "kachat_contacts": [
                KaChatContact(address: "kaspa:nonsense", alias: "", addedAt: added),
                KaChatContact(address: bob.description, alias: "", addedAt: added),
            ]
        ])
        let store = try store()
        let report = try store.migrateLegacy(json: file, defaultWallet: wallet)
        #expect(report.skipped.count == 1 && report.skipped.first?.index == 0)
        #expect(report.records == 1)
    }

    @Test func mixedCaseAndPrefixlessDuplicatesCollapseIntoOneRecord() throws {
        let body = String(bob.description.dropFirst("kaspa:".count))
        let early = added.addingTimeInterval(-3_600)
        let file = try KaChatLegacyFile.encode([
            "kachat_contacts": [
                KaChatContact(address: bob.description.uppercased(), alias: "", addedAt: added),
                KaChatContact(address: body, alias: "", addedAt: early, lastMessageAt: added),
                KaChatContact(address: "Kaspa:" + body, alias: "", addedAt: added),
            ]
        ])
        let store = try store()
        let report = try store.migrateLegacy(json: file, defaultWallet: wallet)
        #expect(report.entriesRead == 3 && report.records == 1)
        let contacts = try store.contacts(wallet: wallet)
        #expect(contacts.map(\.address.description) == [bob.description])
        #expect(contacts.first?.addedAt == millis(early))
        #expect(contacts.first?.lastMessageAt == millis(added))
    }

    @Test func twoDevicesMigratingDifferentListsConvergeToTheirUnion() throws {
        let a = try store("a")
        let b = try store("b")
        _ = try a.migrateLegacy(
            json: try KaChatLegacyFile.encode([
                "kachat_contacts": [
                    KaChatContact(address: bob.description, alias: "Bob A", addedAt: added)
                ]
            ]), defaultWallet: wallet)
        _ = try b.migrateLegacy(
            json: try KaChatLegacyFile.encode([
                "kachat_contacts": [
                    KaChatContact(address: bob.description.uppercased(), alias: "Bob B", addedAt: added),
                    KaChatContact(address: carol.description, alias: "Carol", addedAt: added),
                ]
            ]), defaultWallet: wallet)
        try Fixture.sync(a, to: b)
        try Fixture.sync(b, to: a)
        #expect(try a.records(wallet: wallet) == b.records(wallet: wallet))
        #expect(try a.contacts(wallet: wallet).map(\.address) == [bob, carol].sorted())
    }

    @Test func anyRealEditBeatsAMigratedValueEvenWithAnOlderClock() throws {
        // Given device A renamed Bob with a clock far in the past, and device B migrates later
        let a = try store("a", at: 1_000)
        try a.add(bob, wallet: wallet, alias: "Real")
        let b = try store("b")
        _ = try b.migrateLegacy(
            json: try KaChatLegacyFile.encode([
                "kachat_contacts": [
                    KaChatContact(address: bob.description, alias: "Legacy", addedAt: added, notificationsMuted: true)
                ]
            ]),
            defaultWallet: wallet)
        try Fixture.sync(a, to: b)
        try Fixture.sync(b, to: a)
        for store in [a, b] {
            let contact = try #require(try store.contact(bob, wallet: wallet))
            #expect(contact.alias == "Real" && !contact.notificationsMuted)
        }
    }

    @Test func aContactDeletedElsewhereStaysDeletedWhenALegacyListStillHasIt() throws {
        let a = try store("a")
        try a.add(bob, wallet: wallet)
        try a.remove(bob, wallet: wallet)
        let b = try store("b")
        try Fixture.sync(a, to: b)
        _ = try b.migrateLegacy(
            json: try KaChatLegacyFile.encode([
                "kachat_contacts": [
                    KaChatContact(address: bob.description, alias: "", addedAt: added)
                ]
            ]), defaultWallet: wallet)
        #expect(try b.contacts(wallet: wallet).isEmpty)
    }
}
