import ChatTimeline
import Foundation
import GRDB
import Testing

@testable import ChatHistory

/// Issue 49's marked keys: a sync reads only the records written since they last matched the
/// server, and still pushes exactly what differs — after an edit, a failed push, a pull, a
/// deletion, and in a history written before the marks existed.
@Suite struct HistorySyncDirtyTests {
    let peer = ConversationID("kaspa:qpeer")
    typealias Held = HistorySyncStoreTests.Held

    func row(_ text: String?, tx: String, at blockTime: UInt64, status: DeliveryStatus = .sent) -> StoredMessage {
        StoredMessage(
            id: MessageID(bytes: [UInt8](repeating: UInt8(blockTime / 1_000), count: 16))!, conversation: peer,
            txID: TxID(tx), blockTime: blockTime, timestamp: Int64(blockTime), status: status, direction: .outgoing,
            kind: .text, body: text.map { Data($0.utf8) })
    }

    func marked(_ store: ChatHistoryStore) throws -> [String] {
        try store.writer.read { db in try String.fetchAll(db, sql: "SELECT key FROM sync_dirty ORDER BY key") }
    }

    @Test("settled, nothing is marked; an edit marks its record alone; a failed push keeps it marked")
    func onlyWhatChangedIsRead() throws {
        let laptop = try StoreFixture()
        defer { laptop.remove() }
        let server = Held()
        try laptop.store.save(contentsOf: (1...5).map { row("m\($0)", tx: "t\($0)", at: UInt64($0) * 1_000) })
        #expect(try marked(laptop.store).count == 5)
        #expect(try server.sync(laptop.store).pushed == 5)
        #expect(try marked(laptop.store).isEmpty && laptop.store.syncOutgoing().isEmpty)

        // The chain confirms t3: only its record is read and pushed.
        try laptop.store.save(row("m3", tx: "t3", at: 3_000, status: .confirmed))
        #expect(try marked(laptop.store) == ["message:t3"])
        let outgoing = try laptop.store.syncOutgoing()
        #expect(outgoing.map(\.record.key) == ["message:t3"] && outgoing.first?.baseVersion == 1)
        // The push failed (nothing recorded): the record is still marked and still outgoing.
        #expect(try laptop.store.syncOutgoing().map(\.record.key) == ["message:t3"])
        #expect(try server.sync(laptop.store).pushed == 1)
        #expect(try marked(laptop.store).isEmpty)

        // A reaction is no record; a row that does not travel is read once, then unmarked.
        try laptop.store.react(target: TxID("t2"), reactor: "kaspa:qpeer", emoji: "👍", txID: TxID("r"), blockTime: 1)
        try laptop.store.save(row("refused", tx: "t6", at: 6_000, status: .failed))
        #expect(try marked(laptop.store) == ["message:t6"])
        #expect(try laptop.store.syncOutgoing().isEmpty && marked(laptop.store).isEmpty)
    }

    @Test("a write between the listing and the push stays marked and goes up next")
    func aWriteDuringThePushIsNotLost() throws {
        let laptop = try StoreFixture()
        defer { laptop.remove() }
        try laptop.store.save(row("m1", tx: "t1", at: 1_000))
        let listed = try laptop.store.syncOutgoing()
        #expect(listed.map(\.record.key) == ["message:t1"])
        // Another process of the profile confirms t1 while the push is on the wire.
        try laptop.store.save(row("m1", tx: "t1", at: 1_000, status: .confirmed))
        try laptop.store.syncPushed(listed.map { ($0, 1) })
        #expect(try marked(laptop.store) == ["message:t1"])
        let next = try laptop.store.syncOutgoing()
        #expect(next.map(\.record) == [.message(row("m1", tx: "t1", at: 1_000, status: .confirmed))])
        #expect(next.first?.baseVersion == 1)
    }

    @Test("what a pull brings is settled by the next sync, and a deletion marks its records")
    func pullsAndDeletions() throws {
        let (laptop, phone) = (try StoreFixture(), try StoreFixture())
        defer {
            laptop.remove()
            phone.remove()
        }
        let server = Held()
        try laptop.store.save(contentsOf: (1...3).map { row("m\($0)", tx: "t\($0)", at: UInt64($0) * 1_000) })
        try server.sync(laptop.store)
        #expect(try server.sync(phone.store) == (changed: 3, pushed: 0))
        #expect(try marked(phone.store).isEmpty && phone.store.syncOutgoing().isEmpty)

        try phone.store.deleteConversation(peer, through: 2_000)
        #expect(try marked(phone.store) == ["conversation:kaspa:qpeer", "message:t1", "message:t2"])
        #expect(try server.sync(phone.store).pushed == 3)
        try server.sync(laptop.store)
        #expect(try laptop.store.count(in: peer) == 1)
        #expect(try marked(laptop.store).isEmpty && marked(phone.store).isEmpty)
    }

    @Test("a history that synced before the marks pushes exactly what differs after the upgrade")
    func upgradeMarksEverythingOnce() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("v5.sqlite").path
        let (same, changed) = (row("same", tx: "t1", at: 1_000), row("changed", tx: "t2", at: 2_000))
        let queue = try DatabaseQueue(path: path)
        try ChatHistoryStore.migrator.migrate(queue, upTo: "v5 history sync")
        try queue.write { db in
            for message in [same, changed] {
                try db.execute(
                    sql: """
                        INSERT INTO message (id, conversation, txId, blockTime, timestamp, status, direction, kind, body)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        Data(message.id.bytes), message.conversation.rawValue, message.txID?.rawValue,
                        Int64(message.blockTime), message.timestamp, message.status.rawValue,
                        message.direction.rawValue, message.kind.rawValue, message.body,
                    ])
            }
            // The server holds t1 as it is, t2 with an older text, and t9, whose row is gone here.
            let held: [(String, [UInt8])] = [
                ("message:t1", ChatSyncRecord.message(same).plaintext()),
                ("message:t2", ChatSyncRecord.message(row("older", tx: "t2", at: 2_000)).plaintext()),
                ("message:t9", ChatSyncRecord.message(row("gone", tx: "t9", at: 9_000)).plaintext()),
            ]
            for (key, plaintext) in held {
                try db.execute(
                    sql: "INSERT INTO sync_record (key, version, held) VALUES (?, 1, ?)",
                    arguments: [key, Data(plaintext)])
            }
        }
        try queue.close()

        let store = try ChatHistoryStore(path: path)
        let outgoing = try store.syncOutgoing()
        #expect(outgoing.map(\.record) == [.message(changed), .gone(TxID("t9"))])
        #expect(try marked(store) == ["message:t2", "message:t9"])
    }
}
