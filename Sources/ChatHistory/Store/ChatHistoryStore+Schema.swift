import ChatTimeline
import Foundation
import GRDB

/// Schema, row codec and the identity-keeping write (shipped migrations are never edited).
extension ChatHistoryStore {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1 messages") { db in
            // `id` is the UUID's 16 bytes: SQLite compares BLOBs with memcmp, exactly as
            // `MessageID <` does, so SQL and Swift order ties identically.
            try db.execute(
                sql: """
                    CREATE TABLE message (
                        id BLOB NOT NULL PRIMARY KEY CHECK (length(id) = 16),
                        conversation TEXT NOT NULL,
                        txId TEXT UNIQUE,
                        blockTime INTEGER NOT NULL CHECK (blockTime >= 0),
                        timestamp INTEGER NOT NULL,
                        status TEXT NOT NULL,
                        direction TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        body BLOB
                    );
                    CREATE INDEX message_order ON message (conversation, blockTime, timestamp, id);
                    """)
        }
        migrator.registerMigration("v2 read marks") { db in
            // Issue 16 item 5. A history older than the marks counts as read: it was on screen
            // (or in `tandem chat history`) before, and a first start must not report it all
            // as unread.
            try db.execute(
                sql: """
                    CREATE TABLE read_mark (
                        conversation TEXT NOT NULL PRIMARY KEY,
                        blockTime INTEGER NOT NULL CHECK (blockTime >= 0),
                        timestamp INTEGER NOT NULL,
                        id BLOB NOT NULL CHECK (length(id) = 16)
                    );
                    INSERT INTO read_mark (conversation, blockTime, timestamp, id)
                    SELECT conversation, blockTime, timestamp, id FROM (
                        SELECT conversation, blockTime, timestamp, id, ROW_NUMBER() OVER (
                            PARTITION BY conversation ORDER BY blockTime DESC, timestamp DESC, id DESC
                        ) AS position
                        FROM message WHERE direction = 'incoming'
                    ) WHERE position = 1;
                    """)
        }
        migrator.registerMigration("v3 payments, roots and reactions") { db in
            // Issue 43: a payment's amount and the payload's root on each row, and KaChat's
            // reactions: one per (target message, reactor), the newest by block time; a removal
            // keeps its row with no emoji, so an older add replayed later cannot bring it back.
            try db.execute(
                sql: """
                    ALTER TABLE message ADD COLUMN amount INTEGER CHECK (amount >= 0);
                    ALTER TABLE message ADD COLUMN root TEXT;
                    CREATE TABLE reaction (
                        target TEXT NOT NULL,
                        reactor TEXT NOT NULL,
                        emoji TEXT,
                        txId TEXT NOT NULL,
                        blockTime INTEGER NOT NULL CHECK (blockTime >= 0),
                        PRIMARY KEY (target, reactor)
                    );
                    CREATE INDEX reaction_order ON reaction (target, blockTime, reactor);
                    """)
        }
        migrator.registerMigration("v4 unverified payments") { db in
            // Issue 50 item 7: a payment is verified when its row is confirmed (a chain block
            // accepted it). Rows stored before were not checked: they stay unverified until a
            // walk or a sync sees them accepted.
            try db.execute(
                sql: """
                    CREATE INDEX message_unverified_payment ON message (blockTime)
                    WHERE kind = 'payment' AND status != 'confirmed' AND direction = 'incoming';
                    """)
        }
        migrator.registerMigration("v5 history sync") { db in
            // Issue 48 item 1: what the account's server holds of each synced record (its
            // version, its plaintext, and the UUID a message record carries), and the
            // conversations deleted through a block time, which no later read brings back.
            try db.execute(
                sql: """
                    CREATE TABLE sync_record (
                        key TEXT NOT NULL PRIMARY KEY,
                        version INTEGER NOT NULL CHECK (version >= 0),
                        held BLOB NOT NULL,
                        messageId BLOB CHECK (messageId IS NULL OR length(messageId) = 16)
                    );
                    CREATE TABLE deleted_conversation (
                        conversation TEXT NOT NULL PRIMARY KEY,
                        through INTEGER NOT NULL CHECK (through >= 0)
                    );
                    """)
        }
        migrator.registerMigration("v6 sync dirty keys") { db in
            // Issue 49: the record keys written since they last matched the server, kept by
            // triggers, so a sync with nothing new reads one empty table instead of encoding every
            // row. Each write gives its key a new mark (delete, then insert: no conflict, whatever
            // rule the outer statement has), so a push clears only the marks it read. Every key of
            // a history that synced before is marked once.
            func mark(_ key: String) -> String {
                "DELETE FROM sync_dirty WHERE key = \(key); INSERT INTO sync_dirty (key) VALUES (\(key));"
            }
            try db.execute(
                sql: """
                    CREATE TABLE sync_dirty (mark INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT NOT NULL UNIQUE);
                    CREATE TRIGGER message_sync_insert AFTER INSERT ON message WHEN NEW.txId IS NOT NULL
                    BEGIN \(mark("'message:' || NEW.txId")) END;
                    CREATE TRIGGER message_sync_update AFTER UPDATE ON message WHEN NEW.txId IS NOT NULL
                    BEGIN \(mark("'message:' || NEW.txId")) END;
                    CREATE TRIGGER message_sync_retag AFTER UPDATE OF txId ON message
                    WHEN OLD.txId IS NOT NULL AND OLD.txId IS NOT NEW.txId
                    BEGIN \(mark("'message:' || OLD.txId")) END;
                    CREATE TRIGGER message_sync_delete AFTER DELETE ON message WHEN OLD.txId IS NOT NULL
                    BEGIN \(mark("'message:' || OLD.txId")) END;
                    CREATE TRIGGER deleted_conversation_sync_insert AFTER INSERT ON deleted_conversation
                    BEGIN \(mark("'conversation:' || NEW.conversation")) END;
                    CREATE TRIGGER deleted_conversation_sync_update AFTER UPDATE ON deleted_conversation
                    BEGIN \(mark("'conversation:' || NEW.conversation")) END;
                    """)
            try ChatHistoryStore.markEverything(db)
        }
        return migrator
    }

    /// The reactions of a row, joined by U+001F (never in an emoji), oldest first: a seek on
    /// `reaction_order` per row, with no sort.
    static let select = """
        SELECT id, conversation, txId, blockTime, timestamp, status, direction, kind, body, amount, root,
          (SELECT group_concat(emoji, char(31)) FROM (
             SELECT emoji FROM reaction WHERE target = message.txId AND emoji IS NOT NULL
             ORDER BY blockTime, reactor)) AS reactions
        FROM message
        """

    static func decode(_ row: Row) throws -> StoredMessage {
        let idBytes = try row.decode(Data.self, atIndex: 0)
        guard let id = MessageID(bytes: idBytes) else { throw ChatHistoryError.corruptColumn("id") }
        let blockTime = try row.decode(Int64.self, atIndex: 3)
        guard blockTime >= 0 else { throw ChatHistoryError.corruptColumn("blockTime") }
        guard let status = DeliveryStatus(rawValue: try row.decode(String.self, atIndex: 5)) else {
            throw ChatHistoryError.corruptColumn("status")
        }
        guard let direction = MessageDirection(rawValue: try row.decode(String.self, atIndex: 6)) else {
            throw ChatHistoryError.corruptColumn("direction")
        }
        guard let kind = MessageKind(rawValue: try row.decode(String.self, atIndex: 7)) else {
            throw ChatHistoryError.corruptColumn("kind")
        }
        let amount = try row.decode(Int64?.self, atIndex: 9)
        guard (amount ?? 0) >= 0 else { throw ChatHistoryError.corruptColumn("amount") }
        return StoredMessage(
            id: id,
            conversation: ConversationID(try row.decode(String.self, atIndex: 1)),
            txID: try row.decode(String?.self, atIndex: 2).map(TxID.init),
            blockTime: UInt64(blockTime),
            timestamp: try row.decode(Int64.self, atIndex: 4),
            status: status, direction: direction, kind: kind,
            body: try row.decode(Data?.self, atIndex: 8),
            amountSompi: amount.map(UInt64.init),
            root: try row.decode(String?.self, atIndex: 10),
            reactions: try row.decode(String?.self, atIndex: 11).map {
                $0.split(separator: "\u{1F}").map(String.init)
            } ?? []
        )
    }

    static func arguments(_ message: StoredMessage) -> StatementArguments {
        [
            Data(message.id.bytes), message.conversation.rawValue, message.txID?.rawValue,
            Int64(message.blockTime), message.timestamp, message.status.rawValue,
            message.direction.rawValue, message.kind.rawValue, message.body,
            message.amountSompi.map { Int64(clamping: $0) }, message.root,
        ]
    }

    static func fetchMessage(_ id: MessageID, in db: Database) throws -> StoredMessage? {
        try Row.fetchOne(db.cachedStatement(sql: select + " WHERE id = ?"), arguments: [Data(id.bytes)]).map(decode)
    }

    static func fetchMessage(txID: TxID, in db: Database) throws -> StoredMessage? {
        try Row.fetchOne(db.cachedStatement(sql: select + " WHERE txId = ?"), arguments: [txID.rawValue]).map(decode)
    }

    /// The identity rule: the first UUID seen for a txId owns it forever; a second row that
    /// turns out to carry the same txId (a promoted pending copy) is folded in and deleted.
    static func save(_ incoming: StoredMessage, in db: Database) throws -> SaveOutcome {
        if let through = try deletedThrough(incoming.conversation, in: db), incoming.blockTime <= through {
            return .discarded(incoming.id)
        }
        var message = incoming
        var removed: MessageID?
        if let txID = message.txID,
            let owner = try fetchMessage(txID: txID, in: db),
            owner.id != message.id
        {
            if try fetchMessage(message.id, in: db) != nil {
                try db.execute(sql: "DELETE FROM message WHERE id = ?", arguments: [Data(message.id.bytes)])
                removed = message.id
            }
            message.id = owner.id
        }
        guard let existing = try fetchMessage(message.id, in: db) else {
            try db.cachedStatement(
                sql:
                    "INSERT INTO message (id, conversation, txId, blockTime, timestamp, status, direction, kind, body, amount, root) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            ).execute(arguments: arguments(message))
            return .inserted(message.id)
        }
        let merged = merge(existing, message)
        if merged != existing {
            try db.execute(
                sql:
                    "UPDATE message SET conversation = ?, txId = ?, blockTime = ?, timestamp = ?, status = ?, direction = ?, kind = ?, body = ?, amount = ?, root = ? WHERE id = ?",
                arguments: [
                    merged.conversation.rawValue, merged.txID?.rawValue, Int64(merged.blockTime), merged.timestamp,
                    merged.status.rawValue, merged.direction.rawValue, merged.kind.rawValue, merged.body,
                    merged.amountSompi.map { Int64(clamping: $0) }, merged.root, Data(merged.id.bytes),
                ])
        }
        if let removed { return .merged(removed: removed, into: merged.id) }
        return merged == existing ? .unchanged(merged.id) : .updated(merged.id)
    }

    /// A later copy never downgrades status nor replaces chain facts with older ones, and never
    /// drops a known txId or body.
    static func merge(_ existing: StoredMessage, _ incoming: StoredMessage) -> StoredMessage {
        var merged = incoming.status.rank >= existing.status.rank ? incoming : existing
        merged.id = existing.id
        merged.conversation = existing.conversation
        merged.txID = incoming.txID ?? existing.txID
        merged.body = incoming.body ?? existing.body
        merged.amountSompi = incoming.amountSompi ?? existing.amountSompi
        merged.root = incoming.root ?? existing.root
        merged.reactions = existing.reactions
        return merged
    }
}
