public import ChatTimeline
import Foundation
import GRDB

/// The reader's place in each conversation, so unread counts survive a restart (issue 16 item
/// 5). The mark is the key of the newest incoming row when the conversation was last seen, and
/// the unread count is every incoming message after it, counted by a seek on `message_order`
/// (timeline-and-contacts.md §1.5). Counting from the history, rather than keeping a counter,
/// keeps the number true whatever added the rows: the live stream, a sync, another process.
extension ChatHistoryStore {
    /// Handshake placeholders are not messages to read: the list shows a pending handshake on
    /// its own (kasia-protocol §8).
    static let unreadSQL =
        "SELECT COUNT(*) FROM message WHERE conversation = ? AND direction = 'incoming' AND kind != 'handshake'"

    /// Marks the conversation read through its newest incoming row and returns the mark; `nil`
    /// (and no mark) when nothing has arrived yet.
    @discardableResult
    public func markRead(_ conversation: ConversationID) throws -> MessageKey? {
        try writer.write { db in
            guard
                let newest = try Row.fetchOne(
                    db,
                    sql:
                        "SELECT blockTime, timestamp, id FROM message WHERE conversation = ? AND direction = 'incoming'"
                        + " ORDER BY blockTime DESC, timestamp DESC, id DESC LIMIT 1",
                    arguments: [conversation.rawValue])
            else { return nil }
            let key = try Self.decodeKey(newest)
            try Self.writeReadMark(conversation, key, in: db)
            return key
        }
    }

    /// The conversation's read mark, if it was ever read.
    public func readMark(in conversation: ConversationID) throws -> MessageKey? {
        try writer.read { db in try Self.fetchReadMark(conversation, in: db) }
    }

    /// Incoming messages after the read mark (all of them when there is none).
    public func unreadCount(in conversation: ConversationID) throws -> Int {
        try writer.read { db in
            guard let mark = try Self.fetchReadMark(conversation, in: db) else {
                return try Int.fetchOne(db.cachedStatement(sql: Self.unreadSQL), arguments: [conversation.rawValue])
                    ?? 0
            }
            return try Int.fetchOne(
                db.cachedStatement(sql: Self.unreadSQL + " AND (blockTime, timestamp, id) > (?, ?, ?)"),
                arguments: [conversation.rawValue, Int64(mark.blockTime), mark.timestamp, Data(mark.id.bytes)]) ?? 0
        }
    }

    static func writeReadMark(_ conversation: ConversationID, _ key: MessageKey, in db: Database) throws {
        try db.execute(
            sql: "INSERT INTO read_mark (conversation, blockTime, timestamp, id) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT (conversation) DO UPDATE SET"
                + " blockTime = excluded.blockTime, timestamp = excluded.timestamp, id = excluded.id",
            arguments: [conversation.rawValue, Int64(key.blockTime), key.timestamp, Data(key.id.bytes)])
    }

    static func fetchReadMark(_ conversation: ConversationID, in db: Database) throws -> MessageKey? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT blockTime, timestamp, id FROM read_mark WHERE conversation = ?"),
            arguments: [conversation.rawValue]
        ).map(decodeKey)
    }

    static func decodeKey(_ row: Row) throws -> MessageKey {
        let blockTime = try row.decode(Int64.self, atIndex: 0)
        guard blockTime >= 0 else { throw ChatHistoryError.corruptColumn("blockTime") }
        guard let id = MessageID(bytes: try row.decode(Data.self, atIndex: 2)) else {
            throw ChatHistoryError.corruptColumn("id")
        }
        return MessageKey(blockTime: UInt64(blockTime), timestamp: try row.decode(Int64.self, atIndex: 1), id: id)
    }
}
