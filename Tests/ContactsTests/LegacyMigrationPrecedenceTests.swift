import Foundation
import TandemBasics
import TandemTesting
import Testing

@testable import Contacts

/// One address in both `kachat_contacts_wallet_<addr>` and the older global `kachat_contacts`
/// (issue 12 item 7): the wallet-scoped list wins, a user-given alias beats an auto one and an
/// explicit add beats an auto-add, whatever the order of the snapshot; real edits still win.
@Suite struct LegacyMigrationPrecedenceTests {
    let wallet = Fixture.wallet
    let bob = Fixture.address(1)
    let added = Date(timeIntervalSince1970: 1_700_000_000)

    func store(_ name: String, at millis: Int64 = Fixture.epoch) throws -> ContactsStore {
        try Fixture.store(replica: name, clock: ManualClock(UnixMillis(millis)))
    }

    func contact(_ alias: String, auto: Bool = false, muted: Bool = false) -> KaChatContact {
        KaChatContact(
            address: bob.description, alias: alias, addedAt: added, isAutoAdded: auto, notificationsMuted: muted)
    }

    /// A snapshot whose top-level keys appear in exactly the given order.
    func snapshot(_ lists: [(key: String, contacts: [KaChatContact])]) throws -> [UInt8] {
        let members = try lists.map { list in
            "\"\(list.key)\":" + String(decoding: try JSONEncoder().encode(list.contacts), as: UTF8.self)
        }
        return Array(("{" + members.joined(separator: ",") + "}").utf8)
    }

    var walletKey: String { KaChatLegacyFile.walletKey(wallet.description) }

    /// Both orders of the two lists, and both orders inside a list that holds both entries.
    func everyOrder(wallet walletEntry: KaChatContact, global globalEntry: KaChatContact) throws -> [[UInt8]] {
        [
            try snapshot([(walletKey, [walletEntry]), ("kachat_contacts", [globalEntry])]),
            try snapshot([("kachat_contacts", [globalEntry]), (walletKey, [walletEntry])]),
        ]
    }

    func migrated(_ file: [UInt8], replica: String = "a") throws -> Contact {
        let store = try store(replica)
        _ = try store.migrateLegacy(json: file, defaultWallet: wallet)
        return try #require(try store.contact(bob, wallet: wallet))
    }

    @Test func theWalletListsUserNamedEntryBeatsTheGlobalAutoAddedOne() throws {
        for file in try everyOrder(wallet: contact("Bob"), global: contact("dup", auto: true, muted: true)) {
            let bob = try migrated(file)
            #expect(bob.alias == "Bob" && !bob.isAutoAdded)
        }
    }

    @Test func theWalletListWinsWhenBothNamedTheContact() throws {
        for file in try everyOrder(wallet: contact("New name"), global: contact("Old name", muted: true)) {
            let bob = try migrated(file)
            #expect(bob.alias == "New name" && !bob.notificationsMuted)
        }
    }

    @Test func aUserGivenAliasAndAnExplicitAddBeatAnAutoAddedWalletEntry() throws {
        let autoAlias = bob.autoAlias
        for alias in ["", autoAlias, "bob.kas"] {
            for file in try everyOrder(wallet: contact(alias, auto: true), global: contact("Bob")) {
                let bob = try migrated(file)
                #expect(bob.alias == "Bob" && !bob.isAutoAdded, "wallet alias '\(alias)'")
            }
        }
    }

    @Test func duplicatesInsideOneListFollowTheSameRuleInEitherOrder() throws {
        let auto = contact("dup", auto: true, muted: true)
        let named = contact("Bob")
        for entries in [[auto, named], [named, auto]] {
            for key in [walletKey, "kachat_contacts"] {
                let bob = try migrated(try snapshot([(key, entries)]))
                #expect(bob.alias == "Bob" && !bob.isAutoAdded)
            }
        }
    }

    @Test func aNameOnAnAutoAddedEntryBeatsAnEmptyOneFromTheWalletList() throws {
        for file in try everyOrder(wallet: contact("", auto: true), global: contact("dup", auto: true)) {
            let bob = try migrated(file)
            #expect(bob.alias == "dup" && bob.isAutoAdded)
        }
    }

    @Test func twoDevicesThatMigrateAndSyncKeepTheRule() throws {
        // Given device A's snapshot holds only the global auto-added entry, device B's both lists
        let a = try store("a")
        let b = try store("b")
        _ = try a.migrateLegacy(
            json: try snapshot([("kachat_contacts", [contact("dup", auto: true, muted: true)])]), defaultWallet: wallet)
        _ = try b.migrateLegacy(
            json: try snapshot([("kachat_contacts", [contact("dup", auto: true)]), (walletKey, [contact("Bob")])]),
            defaultWallet: wallet)
        // When they merge bundles both ways
        try Fixture.sync(a, to: b)
        try Fixture.sync(b, to: a)
        // Then both hold the same record, with the wallet list's user-named entry
        #expect(try a.records(wallet: wallet) == b.records(wallet: wallet))
        for store in [a, b] {
            let contact = try #require(try store.contact(bob, wallet: wallet))
            #expect(contact.alias == "Bob" && !contact.isAutoAdded && !contact.notificationsMuted)
        }
    }

    @Test func twoDevicesMigratingOneSnapshotInOppositeOrdersConverge() throws {
        let files = try everyOrder(wallet: contact("Bob"), global: contact("dup", auto: true))
        let a = try store("a")
        let b = try store("b")
        _ = try a.migrateLegacy(json: files[0], defaultWallet: wallet)
        _ = try b.migrateLegacy(json: files[1], defaultWallet: wallet)
        #expect(try a.records(wallet: wallet) == b.records(wallet: wallet))
        try Fixture.sync(a, to: b)
        try Fixture.sync(b, to: a)
        #expect(try a.records(wallet: wallet) == b.records(wallet: wallet))
    }

    @Test func aRealEditStillBeatsEveryMigratedValueAfterSync() throws {
        // Given device A migrated and then renamed Bob with a clock far in the past
        let a = try store("a", at: 1_000)
        _ = try a.migrateLegacy(
            json: try snapshot([(walletKey, [contact("Bob")]), ("kachat_contacts", [contact("dup", auto: true)])]),
            defaultWallet: wallet)
        _ = try a.rename(bob, wallet: wallet, to: "Robert")
        // And device B migrates the same snapshot afterwards
        let b = try store("b")
        _ = try b.migrateLegacy(
            json: try snapshot([("kachat_contacts", [contact("dup", auto: true)]), (walletKey, [contact("Bob")])]),
            defaultWallet: wallet)
        try Fixture.sync(b, to: a)
        try Fixture.sync(a, to: b)
        for store in [a, b] {
            #expect(try store.contact(bob, wallet: wallet)?.alias == "Robert")
        }
    }
}
