import ChatHistory
import ChatTimeline
import Foundation
import Testing

/// The history's side of issue 48 item 1: which records a device pushes, and what a pulled record
/// changes, between two real store files. The server here is the compare-and-swap rule alone (a
/// dictionary of versions); the real server and its wire are in `ChatHistorySyncTests`.
@Suite struct HistorySyncStoreTests {
    let peer = ConversationID("kaspa:qpeer")

    /// What a server holds: each record's version and plaintext, written by compare-and-swap.
    final class Held {
        var records: [String: (version: Int64, plaintext: [UInt8])] = [:]

        /// Writes every outgoing record or none; false on a stale base version.
        func put(_ outgoing: [ChatHistoryStore.SyncOutgoing], from store: ChatHistoryStore) throws -> Bool {
            guard outgoing.allSatisfy({ (records[$0.record.key]?.version ?? 0) == $0.baseVersion }) else {
                return false
            }
            var written: [(outgoing: ChatHistoryStore.SyncOutgoing, version: Int64)] = []
            for item in outgoing {
                let version = (records[item.record.key]?.version ?? 0) + 1
                records[item.record.key] = (version, item.plaintext)
                written.append((item, version))
            }
            try store.syncPushed(written)
            return true
        }

        /// Every record, opened as a device opens it.
        func pull() throws -> [ChatHistoryStore.SyncPulled] {
            try records.sorted { $0.key < $1.key }.map { _, held in
                let record = try #require(ChatSyncRecord.parse(held.plaintext))
                return ChatHistoryStore.SyncPulled(record: record, plaintext: held.plaintext, version: held.version)
            }
        }

        /// One device's sync: pull, merge, push (again after a conflict).
        @discardableResult
        func sync(_ store: ChatHistoryStore) throws -> (changed: Int, pushed: Int) {
            for _ in 0..<4 {
                let changed = try store.syncMerge(try pull())
                let outgoing = try store.syncOutgoing()
                if try put(outgoing, from: store) { return (changed, outgoing.count) }
            }
            throw CancellationError()
        }
    }

    func row(
        _ text: String?, tx: String, at blockTime: UInt64, direction: MessageDirection = .outgoing,
        status: DeliveryStatus = .sent, id: UUID = UUID()
    ) -> StoredMessage {
        StoredMessage(
            id: MessageID(id), conversation: peer, txID: TxID(tx), blockTime: blockTime,
            timestamp: Int64(blockTime), status: status, direction: direction, kind: .text,
            body: text.map { Data($0.utf8) })
    }

    func texts(_ store: ChatHistoryStore) throws -> [String?] {
        try store.newestPage(in: peer, limit: 100).rows.map { $0.body.map { String(decoding: $0, as: UTF8.self) } }
    }

    @Test("a text sent on one device reaches the other's row of the same transaction, which keeps its UUID")
    func sentTextsTravelByTransaction() throws {
        let (laptop, phone) = (try StoreFixture(), try StoreFixture())
        defer {
            laptop.remove()
            phone.remove()
        }
        let server = Held()
        let mine = row("hello from the laptop", tx: "t1", at: 1_000)
        try laptop.store.save(mine)
        try laptop.store.save(row("hi back", tx: "t2", at: 2_000, direction: .incoming, status: .confirmed))
        // The phone read both transactions from the chain: the peer's text, and its own without one.
        let phoneCopy = row(nil, tx: "t1", at: 1_000, status: .confirmed)
        try phone.store.save(phoneCopy)
        try phone.store.save(row("hi back", tx: "t2", at: 2_000, direction: .incoming, status: .confirmed))

        #expect(try server.sync(laptop.store).pushed == 2)
        #expect(try server.sync(phone.store).changed == 1)  // t1 gains its text; t2 was the same
        #expect(try texts(phone.store) == ["hello from the laptop", "hi back"])
        let merged = try #require(try phone.store.message(txID: TxID("t1")))
        #expect(merged.id == phoneCopy.id && merged.status == .confirmed && merged.direction == .outgoing)

        // The phone's confirmation went up; then both are settled: nothing more to push, ever.
        try server.sync(laptop.store)
        #expect(try laptop.store.message(txID: TxID("t1"))?.status == .confirmed)
        #expect(try laptop.store.syncOutgoing().isEmpty && phone.store.syncOutgoing().isEmpty)
        #expect(try laptop.store.count(in: peer) == 2 && phone.store.count(in: peer) == 2)
    }

    @Test("pending and failed rows stay on their device")
    func pendingRowsNeverTravel() throws {
        let laptop = try StoreFixture()
        defer { laptop.remove() }
        try laptop.store.save(row("waiting", tx: "t1", at: 1_000, status: .pending))
        try laptop.store.save(row("refused", tx: "t2", at: 1_000, status: .failed))
        try laptop.store.save(
            StoredMessage(
                id: MessageID(UUID()), conversation: peer, txID: nil, blockTime: 5, timestamp: 5, status: .pending,
                direction: .outgoing, kind: .text, body: Data("no tx yet".utf8)))
        #expect(try laptop.store.syncOutgoing().isEmpty)
    }

    @Test("a deleted conversation goes on every device, its texts leave the server, and no read brings it back")
    func deletedConversationsStayDeleted() throws {
        let (laptop, phone) = (try StoreFixture(), try StoreFixture())
        defer {
            laptop.remove()
            phone.remove()
        }
        let server = Held()
        for store in [laptop.store, phone.store] {
            try store.save(row("one", tx: "t1", at: 1_000))
            try store.save(row("two", tx: "t2", at: 2_000, direction: .incoming, status: .confirmed))
        }
        try server.sync(laptop.store)
        try server.sync(phone.store)
        #expect(try laptop.store.deleteConversation(peer, through: 2_500) == 2)
        let outgoing = try laptop.store.syncOutgoing()
        #expect(
            outgoing.map(\.record) == [
                .conversationDeleted(peer, through: 2_500), .gone(TxID("t1")), .gone(TxID("t2")),
            ])
        try server.sync(laptop.store)
        // No record on the server holds a text any more.
        #expect(try server.pull().allSatisfy { if case .message = $0.record { false } else { true } })

        try server.sync(phone.store)
        #expect(try phone.store.count(in: peer) == 0)
        #expect(try phone.store.deletedThrough(peer) == 2_500)
        // A chain walk reads the old message again: it stays gone; a new one starts the conversation.
        let again = row("two", tx: "t2", at: 2_000, direction: .incoming)
        #expect(try phone.store.save(again) == .discarded(again.id))
        try phone.store.save(row("three", tx: "t3", at: 3_000, direction: .incoming, status: .confirmed))
        #expect(try texts(phone.store) == ["three"])
        try server.sync(phone.store)
        try server.sync(laptop.store)
        #expect(try texts(laptop.store) == ["three"])
    }

    @Test("a text another device wrote before the deletion reached the server is erased by the deleting device")
    func aLateWriterIsOverruled() throws {
        let (laptop, phone) = (try StoreFixture(), try StoreFixture())
        defer {
            laptop.remove()
            phone.remove()
        }
        let server = Held()
        // The laptop deletes offline; meanwhile the phone pushes a text of that conversation.
        try laptop.store.deleteConversation(peer, through: 5_000)
        try phone.store.save(row("old", tx: "t1", at: 4_000))
        try server.sync(phone.store)
        #expect(try server.pull().map(\.record) == [.message(try #require(try phone.store.message(txID: TxID("t1"))))])
        // The laptop pulls it (and stores nothing), then overwrites it with its tombstone.
        #expect(try server.sync(laptop.store).changed == 0)
        #expect(try laptop.store.count(in: peer) == 0)
        #expect(
            Set(try server.pull().map(\.record)) == [.gone(TxID("t1")), .conversationDeleted(peer, through: 5_000)])
        #expect(try server.sync(phone.store).changed == 1)
        #expect(try phone.store.count(in: peer) == 0)
    }

    @Test("a server changed: every record is pushed again")
    func anotherServerGetsEverything() throws {
        let laptop = try StoreFixture()
        defer { laptop.remove() }
        try laptop.store.save(row("one", tx: "t1", at: 1_000))
        try Held().sync(laptop.store)
        #expect(try laptop.store.syncOutgoing().isEmpty)
        try laptop.store.syncForgetServer()
        #expect(try Held().sync(laptop.store).pushed == 1)
    }

    @Test("a record reads back as itself; anything but a version-1 record is refused")
    func recordsParseStrictly() throws {
        var message = row("héllo \"quoted\"", tx: "t1", at: 1_700_000_000_000, status: .confirmed)
        message.amountSompi = 2_000_000_000_000_000_000
        message.kind = .payment
        message.root = "kchat"
        for record in [
            ChatSyncRecord.message(message), .conversationDeleted(peer, through: 42), .gone(TxID("t9")),
        ] {
            #expect(ChatSyncRecord.parse(record.plaintext()) == record)
        }
        let good = String(decoding: ChatSyncRecord.message(message).plaintext(), as: UTF8.self)
        for bad in [
            good.replacingOccurrences(of: #""v":1"#, with: #""v":2"#),
            good.replacingOccurrences(of: #""status":"confirmed""#, with: #""status":"pending""#),
            good.replacingOccurrences(of: "2000000000000000000", with: "20000000000000000000"),
            good.replacingOccurrences(of: #""root":"kchat""#, with: #""root":"kchat","extra":1"#),
            good.replacingOccurrences(of: #""txId":"t1""#, with: #""txId":"""#),
            #"{"v":1,"type":"gone"}"#, #"{"v":1,"type":"reaction","txId":"t1"}"#, "not json",
        ] {
            #expect(ChatSyncRecord.parse(Array(bad.utf8)) == nil, "\(bad)")
        }
    }
}
