import Foundation
import GRDB
import KasiaProtocol
import KaspaCrypto
import RoutingStore
import TandemBasics
import TestSupport
import Testing

@Suite("Routing store and the legacy migration")
struct RoutingStoreTests {
    let me = PrivateKey.generate()
    var wallet: KaspaAddress { KaspaAddress(publicKey: me.xOnlyPublicKey) }
    let legacyPeer = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)
    let newPeer = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)
    let otherWalletPeer = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)

    /// A snapshot in KaChat's shape, with the quirks KaChat data has.
    func snapshotJSON() -> Data {
        let json: [String: Any] = [
            "conversationAliases": [legacyPeer.description.uppercased(): ["a1b2c3d4e5f6", "not-an-alias"]],
            "ourAliases": [String(legacyPeer.description.dropFirst("kaspa:".count)): ["0f1e2d3c4b5a"]],
            "conversationPrimaryAliases": [legacyPeer.description: "a1b2c3d4e5f6"],
            "kachat_contacts_wallet_\(wallet)": [
                [
                    "id": UUID().uuidString, "address": newPeer.description, "alias": "Bob", "addedAt": 700_000_000.5,
                    "isAutoAdded": false,
                ],
                [
                    "id": UUID().uuidString, "address": legacyPeer.description, "alias": "Ann", "addedAt": 1,
                    "isArchived": true,
                ],
                [
                    "id": UUID().uuidString,
                    "address": "kaspa:pqqqzqsrqszsvpcgpy9qkrqdpc83qygjzv2p29shrqv35xcur50p74gurgf2j",
                ],
            ],
            "kachat_contacts_wallet_kaspa:qsomeoneelse": [["address": otherWalletPeer.description]],
        ]
        return (try? JSONSerialization.data(withJSONObject: json)) ?? Data()
    }

    func store(_ dir: TemporaryDirectory) throws -> RoutingStore {
        try RoutingStore(path: dir.path("routing.sqlite"))
    }

    @Test func migratesContactsIntoHybridAndDeterministicStates() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try store(dir)
        let snapshot = try LegacySnapshot(json: snapshotJSON(), wallet: wallet)
        let report = try store.migrateLegacy(snapshot, privateKey: me, now: UnixMillis(5))

        #expect(report.performed && report.contacts == 2 && report.hybrid == 1 && report.deterministicOnly == 1)
        #expect(report.skipped.count == 2, "\(report.skipped)")  // the bad alias and the P2SH contact
        let table = try store.fetchTable()
        let legacy = try #require(table[legacyPeer])
        #expect(legacy.mode == .hybrid)
        #expect(legacy.legacyIncomingAliases == [try Alias("a1b2c3d4e5f6")])
        #expect(legacy.legacyOutgoingAliases == [try Alias("0f1e2d3c4b5a")])
        #expect(legacy.deterministic == (try AliasPair(privateKey: me, peer: legacyPeer)))
        #expect(table[newPeer]?.mode == .deterministicOnly)
        #expect(table[otherWalletPeer] == nil, "another wallet's list is not migrated")
    }

    @Test func runningTwiceChangesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try store(dir)
        let snapshot = try LegacySnapshot(json: snapshotJSON(), wallet: wallet)
        _ = try store.migrateLegacy(snapshot, privateKey: me, now: UnixMillis(5))
        var afterFirst = try store.fetchTable()
        // Given traffic changed a state after migration
        afterFirst[newPeer]?.record(.messageOnDeterministicAlias)
        try store.save(afterFirst.states.values)
        let before = try store.fetchTable()

        let second = try store.migrateLegacy(snapshot, privateKey: me, now: UnixMillis(99))

        #expect(!second.performed)
        #expect(try store.fetchTable() == before)
        #expect(try RoutingStore(path: dir.path("routing.sqlite")).fetchTable() == before, "persisted across reopen")
    }

    @Test("a crash between steps leaves the old state intact; the re-run completes")
    func crashMidMigrationLeavesNoHalfState() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try store(dir)
        struct Crash: Error {}
        let existing = try ConversationRoutingState(contact: legacyPeer, privateKey: me, now: UnixMillis(1))
        try store.save([existing])
        let snapshot = try LegacySnapshot(json: snapshotJSON(), wallet: wallet)

        #expect(throws: Crash.self) {
            try store.migrateLegacy(snapshot, privateKey: me, now: UnixMillis(5)) { index in
                if index == 1 { throw Crash() }
            }
        }

        #expect(try store.fetchTable() == RoutingTable([existing]))
        #expect(try !store.legacyMigrationCompleted())
        let report = try store.migrateLegacy(snapshot, privateKey: me, now: UnixMillis(6))
        #expect(report.performed && report.contacts == 2)
        #expect(try store.fetchTable()[legacyPeer]?.mode == .hybrid, "an existing state gains its legacy aliases")
    }

    @Test func policyAndStatesRoundTrip() throws {
        let store = try RoutingStore(writer: DatabaseQueue())
        #expect(try store.policy() == RoutingPolicy())
        let c = RoutingPolicy(stage: .c, retentionMilliseconds: 42)
        try store.setPolicy(c)
        #expect(try store.policy() == c)

        var state = try ConversationRoutingState(
            contact: legacyPeer, privateKey: me, legacyIncoming: [Alias.random()],
            legacyOutgoing: [Alias.random(), Alias.random()], now: UnixMillis(10))
        _ = state.receiveMessage(on: state.deterministic.myAlias, at: UnixMillis(20), policy: c)
        state.lastLegacyIncomingAt = UnixMillis(15)
        state.conversationID = "0123456789ab"
        state.recordRoot(.kchat, at: UnixMillis(25))
        state.rootPreference = .ciphMsg
        try store.save([state])
        #expect(try store.fetchOne(legacyPeer) == state)
        #expect(try store.purgeStaleLegacyAliases(now: UnixMillis(1_000), retentionMs: 100) == [legacyPeer])
        #expect(try store.fetchOne(legacyPeer)?.hasLegacyData == false)
    }

    @Test func rejectsSnapshotsOfTheWrongShape() throws {
        for bad in ["[]", "{\"ourAliases\": 3}", "not json", "{\"kachat_contacts\": {}}"] {
            #expect(throws: RoutingStoreError.self) { try LegacySnapshot(json: Data(bad.utf8), wallet: wallet) }
        }
    }

    @Test func theUsersRoutingChoiceIsKeptAcrossReopen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        var state = try ConversationRoutingState(contact: newPeer, privateKey: me, now: UnixMillis(1))
        #expect(state.setPreference(.legacy, policy: RoutingPolicy(stage: .a)) { Alias.random() })
        try store(dir).save([state])
        let reopened = try RoutingStore(path: dir.path("routing.sqlite")).fetchOne(newPeer)
        #expect(reopened?.preference == .legacy)
        #expect(reopened == state)
    }
}
