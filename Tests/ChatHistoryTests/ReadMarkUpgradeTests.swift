import ChatTimeline
import Foundation
import GRDB
import Testing

@testable import ChatHistory

/// A history file written before read marks (schema v1 only), opened by the current store
/// (issue 16 item 5): the v2 migration keeps every message and counts the old history as read,
/// so only what arrives after the upgrade is unread.
@Suite struct ReadMarkUpgradeTests {
    /// Writes `rows` into a file migrated with the shipped v1 migration and nothing after it,
    /// with the v1 columns in plain SQL, as a build before read marks stored them.
    static func writeVersionOne(_ rows: [StoredMessage], at path: String) throws {
        let queue = try DatabaseQueue(path: path)
        try ChatHistoryStore.migrator.migrate(queue, upTo: "v1 messages")
        try queue.write { db in
            #expect(try !db.tableExists("read_mark"), "a v1 file has no read marks")
            for row in rows {
                try db.execute(
                    sql: """
                        INSERT INTO message (id, conversation, txId, blockTime, timestamp, status, direction, kind, body)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [
                        Data(row.id.bytes), row.conversation.rawValue,
                        row.txID?.rawValue, Int64(row.blockTime), row.timestamp, row.status.rawValue,
                        row.direction.rawValue, row.kind.rawValue, row.body,
                    ])
            }
        }
        try queue.close()
    }

    @Test func aVersionOneFileKeepsEveryMessageAndCountsOnlyNewArrivalsAsUnread() throws {
        let fixture = try StoreFixture()
        defer { fixture.remove() }
        let path = fixture.directory.appendingPathComponent("v1.sqlite").path
        // Given a v1 file with two conversations: three incoming and one of our own in the
        // first, only our own in the second
        let other = ConversationID("kaspa:qonlyoutgoing")
        var own = fixture.message(blockTime: 4_000, txID: "own")
        own.direction = .outgoing
        var elsewhere = fixture.message(blockTime: 2_500, txID: "elsewhere")
        elsewhere.conversation = other
        elsewhere.direction = .outgoing
        let incoming = (1...3).map { fixture.message(blockTime: 1_000 * UInt64($0), txID: "in\($0)") }
        try Self.writeVersionOne(incoming + [own, elsewhere], at: path)

        // When the current store opens it
        let store = try ChatHistoryStore(path: path)

        // Then every message is there, with its UUID, and nothing counts as unread
        let rows = try store.newestPage(in: fixture.conversation, limit: 50).rows
        #expect(rows.map(\.id) == (incoming + [own]).map(\.id))
        #expect(rows.map(\.body) == (incoming + [own]).map(\.body))
        #expect(try store.newestPage(in: other, limit: 50).rows.map(\.id) == [elsewhere.id])
        #expect(try store.unreadCount(in: fixture.conversation) == 0)
        #expect(try store.readMark(in: fixture.conversation)?.blockTime == 3_000, "the newest incoming row")
        #expect(try store.readMark(in: other) == nil)
        #expect(try store.unreadCount(in: other) == 0)

        // And what arrives after the upgrade is unread, also after reopening
        try store.save(contentsOf: [fixture.message(blockTime: 5_000), fixture.message(blockTime: 6_000)])
        #expect(try store.unreadCount(in: fixture.conversation) == 2)
        #expect(try ChatHistoryStore(path: path).unreadCount(in: fixture.conversation) == 2)
    }
}
