import ChatHistory
import ChatTimeline
import Foundation
import Testing

/// The history's side of issue 48 item 2: what a backup holds of a history, and the rule that a
/// merged backup adds and fills but never overwrites, between real store files.
@Suite struct ArchiveMergeStoreTests {
    let bob = ConversationID("kaspa:qbob")
    let carol = ConversationID("kaspa:qcarol")

    func row(
        _ text: String?, tx: String, at blockTime: UInt64, in conversation: ConversationID? = nil,
        direction: MessageDirection = .incoming, status: DeliveryStatus = .confirmed, id: UInt8 = 0
    ) -> StoredMessage {
        StoredMessage(
            id: MessageID(bytes: [UInt8](repeating: id == 0 ? UInt8(blockTime % 250) + 1 : id, count: 16))!,
            conversation: conversation ?? bob, txID: TxID(tx), blockTime: blockTime,
            timestamp: Int64(blockTime) + 7, status: status, direction: direction, kind: .text,
            body: text.map { Data($0.utf8) })
    }

    @Test func aSnapshotHoldsWhatTravelsAndMergesIntoAnEmptyHistoryAsItWas() throws {
        let scratch = try TemporaryHistory()
        defer { scratch.remove() }
        let source = try scratch.store("source")
        try source.save(contentsOf: [
            row("hi", tx: "t1", at: 10), row("hello", tx: "t2", at: 20, direction: .outgoing, status: .sent),
            row("later", tx: "t3", at: 30),
            // Never in a backup: a pending row without a transaction id, and a failed one.
            StoredMessage(
                id: MessageID(bytes: [UInt8](repeating: 40, count: 16))!, conversation: bob, txID: nil, blockTime: 40,
                timestamp: 40, status: .pending,
                direction: .outgoing, kind: .text, body: Data("unsent".utf8)),
            row("failed", tx: "t5", at: 50, direction: .outgoing, status: .failed),
            row("gone", tx: "c1", at: 5, in: carol),
        ])
        try source.react(target: TxID("t2"), reactor: "kaspa:qbob", emoji: "👍", txID: TxID("r1"), blockTime: 25)
        try source.markRead(bob)
        try source.deleteConversation(carol, through: 6)
        let snapshot = try source.snapshot()
        #expect(snapshot.messages.map(\.txID?.rawValue) == ["t1", "t2", "t3"])
        #expect(snapshot.deletedConversations == [carol: 6])
        #expect(snapshot.readMarks[bob]?.blockTime == 30)
        #expect(snapshot.reactions.map(\.emoji) == ["👍"])

        let target = try scratch.store("target")
        let merged = try target.merge(snapshot)
        #expect(merged.added == 3 && merged.readMarks == 1 && merged.reactions == 1)
        #expect(try target.snapshot() == snapshot)
        #expect(try target.unreadCount(in: bob) == 0)
        // A second merge changes nothing.
        let again = try target.merge(snapshot)
        #expect(again.added == 0 && again.updated == 0 && again.unchanged == 3)
        #expect(again.readMarks == 0 && again.reactions == 0 && again.deleted == 0)
        #expect(try target.snapshot() == snapshot)
    }

    @Test func aMergeFillsGapsAndRaisesStatusButNeverOverwrites() throws {
        let scratch = try TemporaryHistory()
        defer { scratch.remove() }
        let store = try scratch.store("here")
        // Here: our own message read from the chain (no text), and one whose text and times we know.
        try store.save(contentsOf: [
            row(nil, tx: "t1", at: 10, direction: .outgoing, status: .confirmed, id: 1),
            row("mine", tx: "t2", at: 20, direction: .outgoing, status: .sent, id: 2),
        ])
        var backup = ChatHistorySnapshot()
        backup.messages = [
            row("the text", tx: "t1", at: 999, direction: .outgoing, status: .sent, id: 11),
            row("other words", tx: "t2", at: 21, direction: .outgoing, status: .confirmed, id: 12),
            row("new", tx: "t3", at: 30, id: 1),  // its UUID names t1 here: it gets its own
        ]
        let merged = try store.merge(backup)
        #expect(merged.added == 1 && merged.updated == 2)
        let rows = try store.newestPage(in: bob, limit: 10).rows
        #expect(rows.map(\.txID?.rawValue) == ["t1", "t2", "t3"])
        // t1 gained its text and kept its UUID, time and status.
        #expect(rows[0].body == Data("the text".utf8) && rows[0].blockTime == 10 && rows[0].status == .confirmed)
        #expect(rows[0].id == MessageID(bytes: [UInt8](repeating: 1, count: 16)))
        // t2 kept its text and times, and moved to confirmed.
        #expect(rows[1].body == Data("mine".utf8) && rows[1].blockTime == 20 && rows[1].status == .confirmed)
        #expect(rows[2].body == Data("new".utf8) && rows[2].id != rows[0].id)
    }

    @Test func readMarksOnlyMoveForwardAndAReadMessageBecomesAMark() throws {
        let scratch = try TemporaryHistory()
        defer { scratch.remove() }
        let store = try scratch.store("marks")
        let rows = (1...5).map { row("m\($0)", tx: "t\($0)", at: UInt64($0) * 10) }
        try store.save(contentsOf: rows)
        // A KaChat backup read through t3: the mark is on t3's row here, t4 and t5 stay unread.
        let counted = try store.merge(ChatHistorySnapshot(readThrough: [bob: TxID("t3")]))
        #expect(counted.readMarks == 1)
        #expect(try store.readMark(in: bob) == rows[2].key && store.unreadCount(in: bob) == 2)
        // An older mark or message does not move it back; one of another conversation is no mark.
        #expect(try store.merge(ChatHistorySnapshot(readMarks: [bob: rows[0].key])).readMarks == 0)
        #expect(try store.merge(ChatHistorySnapshot(readThrough: [bob: TxID("t1")])).readMarks == 0)
        #expect(try store.merge(ChatHistorySnapshot(readThrough: [carol: TxID("t5")])).readMarks == 0)
        #expect(try store.unreadCount(in: bob) == 2)
        // A later one does.
        #expect(try store.merge(ChatHistorySnapshot(readMarks: [bob: rows[4].key])).readMarks == 1)
        #expect(try store.unreadCount(in: bob) == 0)
    }

    @Test func aCopyOfAnotherConversationOrKindFillsNothingAndAPaymentKeepsItsVerification() throws {
        let scratch = try TemporaryHistory()
        defer { scratch.remove() }
        let store = try scratch.store("mismatch")
        // Carol's message read from the chain without a text, and Bob's payment not yet verified.
        var payment = row(nil, tx: "p1", at: 20, status: .sent)
        payment.kind = .payment
        payment.amountSompi = 100
        try store.save(contentsOf: [row(nil, tx: "c1", at: 10, in: carol), payment])
        var claimed = payment
        claimed.status = .confirmed
        claimed.body = Data("for rent".utf8)
        let merged = try store.merge(
            ChatHistorySnapshot(messages: [row("forged", tx: "c1", at: 10), claimed]))
        #expect(merged.mismatched == 1 && merged.updated == 1)
        #expect(try store.message(txID: TxID("c1"))?.body == nil, "Carol's row is untouched")
        let kept = try #require(try store.message(txID: TxID("p1")))
        #expect(kept.body == Data("for rent".utf8) && kept.status == .sent && !kept.isVerifiedPayment)
    }

    @Test func aDeletedConversationStaysDeletedWhicheverSideDeletedIt() throws {
        let scratch = try TemporaryHistory()
        defer { scratch.remove() }
        let store = try scratch.store("deleted")
        try store.save(contentsOf: [row("old", tx: "t1", at: 10), row("kept", tx: "t2", at: 50)])
        // The backup deleted the conversation through 20: t1 goes, t2 stays.
        let merged = try store.merge(ChatHistorySnapshot(deletedConversations: [bob: 20]))
        #expect(merged.deleted == 1)
        // Deleted here through 60: the backup's copies of those rows do not come back.
        try store.deleteConversation(bob, through: 60)
        let replay = try store.merge(
            ChatHistorySnapshot(messages: [row("old", tx: "t1", at: 10), row("kept", tx: "t2", at: 50)]))
        #expect(replay.discarded == 2 && replay.added == 0)
        #expect(try store.count(in: bob) == 0)
    }
}

/// Store files in a directory of their own, removed after the test.
struct TemporaryHistory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("archive-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func store(_ name: String) throws -> ChatHistoryStore {
        try ChatHistoryStore(path: url.appendingPathComponent("\(name).sqlite").path)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
