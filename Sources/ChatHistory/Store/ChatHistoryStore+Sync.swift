public import ChatTimeline
public import Foundation
import GRDB

/// The history's side of its sync between a person's devices (issue 48 item 1): which records
/// differ from what the server holds, what a pull changes here, and deleted conversations.
///
/// The store keeps, per record key, the version and plaintext the server last answered or sent
/// (`sync_record`), so a push is every record whose local plaintext differs: a message row that
/// travels (``ChatSyncRecord/travels(_:)``), a deleted conversation, or a message record whose row
/// is gone here. A message record keeps the UUID it was first written with: a device that read
/// the message from the chain under its own UUID still writes the record's, so two devices never
/// rewrite one record back and forth.
extension ChatHistoryStore {
    /// A record whose local content differs from what the server holds.
    public struct SyncOutgoing: Sendable, Equatable {
        public let record: ChatSyncRecord
        public let plaintext: [UInt8]
        /// The version the server holds, 0 when it holds none.
        public let baseVersion: Int64
        /// The mark that listed the record: ``syncPushed(_:)`` clears it only if no write came
        /// after (another process of the profile may write between the read and the push).
        let mark: Int64
    }

    /// A record the server sent, opened.
    public struct SyncPulled: Sendable, Equatable {
        public let record: ChatSyncRecord
        public let plaintext: [UInt8]
        public let version: Int64

        public init(record: ChatSyncRecord, plaintext: [UInt8], version: Int64) {
            self.record = record
            self.plaintext = plaintext
            self.version = version
        }
    }

    /// Every record to push, in key order (deleted conversations, then messages and gone ones).
    ///
    /// Only the keys the history marked since they last matched the server are read
    /// (`sync_dirty`, kept by triggers on every write of a row or a deletion, issue 49): a sync
    /// with nothing new reads one empty table instead of encoding every row. A marked key whose
    /// record turns out to equal what the server holds is unmarked here; one that differs stays
    /// marked until ``syncPushed(_:)`` records the server's copy. Each write gives its key a new
    /// mark, so a write that lands between this read and the push keeps its key marked.
    public func syncOutgoing() throws -> [SyncOutgoing] {
        try writer.write { db in
            var outgoing: [SyncOutgoing] = []
            let conversations = try Row.fetchCursor(
                db,
                sql: """
                    SELECT d.through, s.version, s.held, k.key, k.mark FROM sync_dirty k
                    JOIN deleted_conversation d ON d.conversation = substr(k.key, 14)
                    LEFT JOIN sync_record s ON s.key = k.key
                    WHERE k.key >= 'conversation:' AND k.key < 'conversation;' ORDER BY k.key
                    """)
            while let row = try conversations.next() {
                let key = try row.decode(String.self, atIndex: 3)
                let conversation = String(key.dropFirst(ChatSyncRecord.conversationPrefix.count))
                let through = UInt64(max(0, try row.decode(Int64.self, atIndex: 0)))
                try Self.compare(
                    .conversationDeleted(ConversationID(conversation), through: through), row, versionAt: 1,
                    mark: try row.decode(Int64.self, atIndex: 4), outgoing: &outgoing)
            }
            // A marked message key is its row when that travels, else a gone record when the server
            // holds one, else nothing.
            let messages = try Row.fetchCursor(
                db,
                sql: """
                    SELECT m.id, m.conversation, m.txId, m.blockTime, m.timestamp, m.status, m.direction, m.kind,
                      m.body, m.amount, m.root, NULL, s.version, s.held, s.messageId, k.key, k.mark
                    FROM sync_dirty k
                    LEFT JOIN message m ON m.txId = substr(k.key, 9) AND m.status IN ('sent', 'confirmed')
                    LEFT JOIN sync_record s ON s.key = k.key
                    WHERE k.key >= 'message:' AND k.key < 'message;' ORDER BY k.key
                    """)
            while let row = try messages.next() {
                let mark = try row.decode(Int64.self, atIndex: 16)
                if try row.decode(Data?.self, atIndex: 0) != nil {
                    var message = try Self.decode(row)
                    guard ChatSyncRecord.travels(message) else { continue }
                    if let held = try row.decode(Data?.self, atIndex: 14).flatMap(MessageID.init(bytes:)) {
                        message.id = held
                    }
                    try Self.compare(.message(message), row, versionAt: 12, mark: mark, outgoing: &outgoing)
                } else if try row.decode(Int64?.self, atIndex: 12) != nil {
                    let key = try row.decode(String.self, atIndex: 15)
                    let txID = TxID(String(key.dropFirst(ChatSyncRecord.messagePrefix.count)))
                    try Self.compare(.gone(txID), row, versionAt: 12, mark: mark, outgoing: &outgoing)
                }
            }
            // What matched is settled: only the records to push stay marked, under their marks.
            try db.execute(sql: "DELETE FROM sync_dirty")
            let insert = try db.cachedStatement(sql: "INSERT INTO sync_dirty (mark, key) VALUES (?, ?)")
            for item in outgoing { try insert.execute(arguments: [item.mark, item.record.key]) }
            return outgoing
        }
    }

    private static func compare(
        _ record: ChatSyncRecord, _ row: Row, versionAt index: Int, mark: Int64, outgoing: inout [SyncOutgoing]
    )
        throws
    {
        let plaintext = record.plaintext()
        let version = try row.decode(Int64?.self, atIndex: index)
        let held = try row.decode(Data?.self, atIndex: index + 1)
        guard held.map({ !$0.elementsEqual(plaintext) }) ?? true else { return }
        outgoing.append(SyncOutgoing(record: record, plaintext: plaintext, baseVersion: version ?? 0, mark: mark))
    }

    /// Forgets what a server held: the history is synced with another server or account now, and
    /// every record is pushed there.
    public func syncForgetServer() throws {
        try writer.write { db in
            try db.execute(sql: "DELETE FROM sync_record")
            try Self.markEverything(db)
        }
    }

    /// Gives `key` a new mark, as the triggers do.
    static func mark(_ key: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM sync_dirty WHERE key = ?", arguments: [key])
        try db.execute(sql: "INSERT INTO sync_dirty (key) VALUES (?)", arguments: [key])
    }

    /// Marks every record key the history could push (``syncOutgoing()`` unmarks those that match).
    static func markEverything(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT OR IGNORE INTO sync_dirty (key)
                  SELECT 'message:' || txId FROM message WHERE txId IS NOT NULL
                  UNION SELECT 'conversation:' || conversation FROM deleted_conversation
                  UNION SELECT key FROM sync_record;
                """)
    }

    /// The server took these records at these versions. A record written again since
    /// ``syncOutgoing()`` listed it stays marked for the next push.
    public func syncPushed(_ written: [(outgoing: SyncOutgoing, version: Int64)]) throws {
        try writer.write { db in
            let unmark = try db.cachedStatement(sql: "DELETE FROM sync_dirty WHERE key = ? AND mark = ?")
            for (item, version) in written {
                try Self.hold(item.record, plaintext: item.plaintext, version: version, in: db)
                try unmark.execute(arguments: [item.record.key, item.mark])
            }
        }
    }

    /// Applies a pulled page in one transaction and says how many local rows it changed: a message
    /// merges into the row of its transaction (``save(_:)``'s rules: status only moves forward, a
    /// text once known stays), a deleted conversation deletes its rows through its time, a gone
    /// message deletes its row. What the records differ from here is pushed next.
    @discardableResult
    public func syncMerge(_ pulled: [SyncPulled]) throws -> Int {
        for item in pulled { if case .message(let message) = item.record { try Self.checkRange(message) } }
        return try writer.write { db in
            var changed = 0
            for item in pulled {
                try Self.hold(item.record, plaintext: item.plaintext, version: item.version, in: db)
                switch item.record {
                case .message(let message):
                    switch try Self.save(message, in: db) {
                    case .inserted, .updated, .merged: changed += 1
                    case .unchanged, .discarded:
                        // No row was written, so no trigger marked it; yet the row may differ
                        // from the record now held (a text kept here, a row deleted here).
                        try Self.mark(item.record.key, in: db)
                    }
                case .conversationDeleted(let conversation, let through):
                    changed += try Self.deleteConversation(conversation, through: through, in: db)
                case .gone(let txID):
                    try db.execute(sql: "DELETE FROM message WHERE txId = ?", arguments: [txID.rawValue])
                    changed += db.changesCount
                    if db.changesCount == 0 { try Self.mark(item.record.key, in: db) }
                }
            }
            return changed
        }
    }

    /// Deletes the conversation's messages through `through` (milliseconds of block time) on
    /// every device: a tombstone that syncs, after which no read of the chain or the relay brings
    /// those messages back. Returns how many rows went.
    @discardableResult
    public func deleteConversation(_ conversation: ConversationID, through: UInt64) throws -> Int {
        guard through <= ChatSyncRecord.exactLimit else { throw ChatHistoryError.blockTimeOutOfRange(through) }
        return try writer.write { db in try Self.deleteConversation(conversation, through: through, in: db) }
    }

    /// The time through which the conversation was deleted, if it was.
    public func deletedThrough(_ conversation: ConversationID) throws -> UInt64? {
        try writer.read { db in try Self.deletedThrough(conversation, in: db) }
    }

    /// The newest block time of the conversation's rows, if it has any.
    public func newestBlockTime(in conversation: ConversationID) throws -> UInt64? {
        try writer.read { db in
            try Int64.fetchOne(
                db, sql: "SELECT MAX(blockTime) FROM message WHERE conversation = ?", arguments: [conversation.rawValue]
            ).map { UInt64(max(0, $0)) }
        }
    }

    static func deletedThrough(_ conversation: ConversationID, in db: Database) throws -> UInt64? {
        try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT through FROM deleted_conversation WHERE conversation = ?"),
            arguments: [conversation.rawValue]
        ).map { UInt64(max(0, $0)) }
    }

    static func deleteConversation(_ conversation: ConversationID, through: UInt64, in db: Database) throws
        -> Int
    {
        try db.execute(
            sql: """
                INSERT INTO deleted_conversation (conversation, through) VALUES (?, ?)
                ON CONFLICT (conversation) DO UPDATE SET through = max(through, excluded.through)
                """,
            arguments: [conversation.rawValue, Int64(through)])
        try db.execute(
            sql: """
                DELETE FROM message WHERE conversation = ?
                AND blockTime <= (SELECT through FROM deleted_conversation WHERE conversation = ?)
                """,
            arguments: [conversation.rawValue, conversation.rawValue])
        return db.changesCount
    }

    /// Keeps what the server holds for a record; a message record's UUID is kept beside it.
    private static func hold(_ record: ChatSyncRecord, plaintext: [UInt8], version: Int64, in db: Database) throws {
        var messageID: Data?
        if case .message(let message) = record { messageID = Data(message.id.bytes) }
        try db.execute(
            sql: """
                INSERT INTO sync_record (key, version, held, messageId) VALUES (?, ?, ?, ?)
                ON CONFLICT (key) DO UPDATE SET version = excluded.version, held = excluded.held,
                  messageId = coalesce(excluded.messageId, sync_record.messageId)
                """,
            arguments: [record.key, version, Data(plaintext), messageID])
    }
}
