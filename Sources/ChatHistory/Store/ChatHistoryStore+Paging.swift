public import ChatTimeline
import Foundation
import GRDB

/// Keyset paging over `(blockTime, timestamp, id)` (timeline-and-contacts.md §1.5).
///
/// The predicates are row values, `(blockTime, timestamp, id) < (?, ?, ?)`, which SQLite turns
/// into a seek on `message_order` (the OR-expanded form is not: §0.3). Each query asks for
/// `limit + 1` rows; the extra row only says `hasMore`, and the boundary is the farthest raw
/// row, so decryption failures later cannot end paging.
extension ChatHistoryStore {
    static let olderSQL =
        select
        + " WHERE conversation = ? AND (blockTime, timestamp, id) < (?, ?, ?)"
        + " ORDER BY blockTime DESC, timestamp DESC, id DESC LIMIT ?"
    static let newerSQL =
        select
        + " WHERE conversation = ? AND (blockTime, timestamp, id) > (?, ?, ?)"
        + " ORDER BY blockTime, timestamp, id LIMIT ?"
    static let newestSQL =
        select
        + " WHERE conversation = ? ORDER BY blockTime DESC, timestamp DESC, id DESC LIMIT ?"
    static let offsetSQL =
        select
        + " WHERE conversation = ? ORDER BY blockTime DESC, timestamp DESC, id DESC LIMIT ? OFFSET ?"

    /// The newest `limit` rows of a conversation, oldest first.
    public func newestPage(in conversation: ConversationID, limit: Int) throws -> MessagePage {
        try Self.checkLimit(limit)
        return try writer.read { db in
            try Self.descendingPage(
                db, sql: Self.newestSQL, arguments: [conversation.rawValue, limit + 1], limit: limit)
        }
    }

    /// Rows strictly older than `cursor` (exclusive), at most `limit`, oldest first.
    public func page(in conversation: ConversationID, olderThan cursor: MessageKey, limit: Int) throws -> MessagePage {
        try Self.checkLimit(limit)
        let arguments = try Self.cursorArguments(conversation, cursor, limit)
        return try writer.read { db in
            try Self.descendingPage(db, sql: Self.olderSQL, arguments: arguments, limit: limit)
        }
    }

    /// Rows strictly newer than `cursor` (exclusive), at most `limit`, oldest first.
    public func page(in conversation: ConversationID, newerThan cursor: MessageKey, limit: Int) throws -> MessagePage {
        try Self.checkLimit(limit)
        let arguments = try Self.cursorArguments(conversation, cursor, limit)
        return try writer.read { db in
            var rows = try Row.fetchAll(db.cachedStatement(sql: Self.newerSQL), arguments: arguments).map(Self.decode)
            let hasMore = rows.count > limit
            if hasMore { rows.removeLast() }
            return MessagePage(rows: rows, hasMore: hasMore, boundary: rows.last?.key)
        }
    }

    /// OFFSET paging, newest first counted: kept only as the benchmark's baseline. It steps over
    /// every skipped row and shifts under concurrent inserts (§1.5), so the app never uses it.
    public func page(in conversation: ConversationID, offset: Int, limit: Int) throws -> MessagePage {
        try Self.checkLimit(limit)
        return try writer.read { db in
            try Self.descendingPage(
                db, sql: Self.offsetSQL, arguments: [conversation.rawValue, limit + 1, max(0, offset)], limit: limit)
        }
    }

    /// The query plan SQLite picks for the older-than-cursor query, one line per step; lets tests
    /// prove the index seek.
    public func olderPageQueryPlan() throws -> [String] {
        try writer.read { db in
            let zero = Data(count: 16)
            return try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN " + Self.olderSQL, arguments: ["", 0, 0, zero, 1]
            ).map { row in try row.decode(String.self, atIndex: 3) }
        }
    }

    static func descendingPage(_ db: Database, sql: String, arguments: StatementArguments, limit: Int) throws
        -> MessagePage
    {
        var rows = try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map(decode)
        let hasMore = rows.count > limit
        if hasMore { rows.removeLast() }
        rows.reverse()
        return MessagePage(rows: rows, hasMore: hasMore, boundary: rows.first?.key)
    }

    static func cursorArguments(_ conversation: ConversationID, _ cursor: MessageKey, _ limit: Int) throws
        -> StatementArguments
    {
        guard cursor.blockTime <= UInt64(Int64.max) else {
            throw ChatHistoryError.blockTimeOutOfRange(cursor.blockTime)
        }
        return [conversation.rawValue, Int64(cursor.blockTime), cursor.timestamp, Data(cursor.id.bytes), limit + 1]
    }

    static func checkLimit(_ limit: Int) throws {
        guard limit >= 1 else { throw ChatHistoryError.invalidPageLimit(limit) }
    }
}
