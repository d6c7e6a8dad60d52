import Foundation
import GRDB
import KasiaProtocol
import KaspaCrypto
import RoutingStore
import TandemBasics
import TestSupport
import Testing

/// A routing row changed on disk is ``RoutingStoreError/corruptRow(contact:reason:)``: columns
/// are read with throwing decoders, so a value of the wrong type never traps (issue 10 item 4).
@Suite struct RoutingStoreCorruptionTests {
    let me = PrivateKey.generate()
    let peer = KaspaAddress(publicKey: PrivateKey.generate().xOnlyPublicKey)

    func damagedStore(_ sql: String, in directory: TemporaryDirectory) throws -> RoutingStore {
        let path = directory.path("routing.sqlite")
        do {
            let store = try RoutingStore(path: path)
            try store.save([try ConversationRoutingState(contact: peer, privateKey: me, now: UnixMillis(10))])
        }
        let raw = try DatabaseQueue(path: path)
        try raw.write { db in try db.execute(sql: sql) }
        try raw.close()
        return try RoutingStore(path: path)
    }

    func corruptContact(_ body: () throws -> some Any) throws -> String? {
        let error = try #require(throws: RoutingStoreError.self) { _ = try body() }
        guard case .corruptRow(let contact, _) = error else { return nil }
        return contact
    }

    @Test(arguments: [
        "UPDATE routingState SET createdAtMs = 'yesterday'",
        "UPDATE routingState SET lastLegacyIncomingAtMs = x'00'",
        "UPDATE routingState SET myAlias = 'not an alias'",
        "UPDATE routingState SET legacyIncoming = 12",
        "UPDATE routingState SET mode = 'sideways'",
        "UPDATE routingState SET preference = 'sometimes'",
        "UPDATE routingState SET peerRoot = 'KCHAT', peerRootAtMs = 1",
        "UPDATE routingState SET peerRoot = 'kchat', peerRootAtMs = NULL",
        "UPDATE routingState SET rootPreference = 'both'",
    ])
    func aDamagedColumnNamesTheContact(sql: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = try damagedStore(sql, in: directory)
        #expect(try corruptContact { try store.fetchOne(peer) } == peer.description)
        #expect(try corruptContact { try store.fetchTable() } == peer.description)
    }
}
