public import ChatTimeline
import Foundation
import GRDB

/// One reaction as a backup carries it (``ChatHistoryStore/react(target:reactor:emoji:txID:blockTime:)``).
public struct ArchivedReaction: Hashable, Sendable {
    public var target: TxID
    public var reactor: String
    /// Nil: the reactor took their reaction back.
    public var emoji: String?
    public var txID: TxID
    public var blockTime: UInt64

    public init(target: TxID, reactor: String, emoji: String?, txID: TxID, blockTime: UInt64) {
        self.target = target
        self.reactor = reactor
        self.emoji = emoji
        self.txID = txID
        self.blockTime = blockTime
    }
}

/// What a backup holds of a history (issue 48 item 2): the rows that travel
/// (``ChatSyncRecord/travels(_:)``: pending and failed rows never leave their device), deleted
/// conversations, read marks and reactions.
public struct ChatHistorySnapshot: Sendable, Equatable {
    public var messages: [StoredMessage]
    /// Every message of the conversation up to the time (block time, milliseconds) is deleted.
    public var deletedConversations: [ConversationID: UInt64]
    public var readMarks: [ConversationID: MessageKey]
    /// The newest message read in each conversation, for a backup that keeps no mark (KaChat's
    /// keeps an unread count, which names one of its own messages): merged as a mark on that
    /// message's row here.
    public var readThrough: [ConversationID: TxID]
    public var reactions: [ArchivedReaction]

    public init(
        messages: [StoredMessage] = [], deletedConversations: [ConversationID: UInt64] = [:],
        readMarks: [ConversationID: MessageKey] = [:], readThrough: [ConversationID: TxID] = [:],
        reactions: [ArchivedReaction] = []
    ) {
        self.messages = messages
        self.deletedConversations = deletedConversations
        self.readMarks = readMarks
        self.readThrough = readThrough
        self.reactions = reactions
    }
}

/// What merging a backup changed.
public struct ArchiveMergeCount: Sendable, Equatable {
    /// Messages new to the history.
    public var added = 0
    /// Messages the history held that gained a text, an amount or a later status.
    public var updated = 0
    /// Messages the history held as they are.
    public var unchanged = 0
    /// Messages inside a conversation deleted here or in the backup.
    public var discarded = 0
    /// Messages whose transaction the history holds in another conversation, direction or kind:
    /// left alone, the history's row untouched.
    public var mismatched = 0
    /// Rows removed by the backup's deleted conversations.
    public var deleted = 0
    /// Read marks set or moved forward.
    public var readMarks = 0
    /// Reactions that changed what a message shows.
    public var reactions = 0

    public init() {}
}

extension ChatHistoryStore {
    /// The history as a backup holds it, in one read: rows by conversation, then time.
    public func snapshot() throws -> ChatHistorySnapshot {
        try writer.read { db in
            var snapshot = ChatHistorySnapshot()
            let rows = try Row.fetchCursor(
                db,
                sql: Self.select
                    + " WHERE txId IS NOT NULL AND status IN ('sent', 'confirmed')"
                    + " ORDER BY conversation, blockTime, timestamp, id")
            while let row = try rows.next() {
                let message = try Self.decode(row)
                if ChatSyncRecord.travels(message) { snapshot.messages.append(message) }
            }
            for row in try Row.fetchAll(db, sql: "SELECT conversation, through FROM deleted_conversation") {
                snapshot.deletedConversations[ConversationID(try row.decode(String.self, atIndex: 0))] = UInt64(
                    max(0, try row.decode(Int64.self, atIndex: 1)))
            }
            for row in try Row.fetchAll(db, sql: "SELECT blockTime, timestamp, id, conversation FROM read_mark") {
                snapshot.readMarks[ConversationID(try row.decode(String.self, atIndex: 3))] = try Self.decodeKey(row)
            }
            for row in try Row.fetchAll(
                db, sql: "SELECT target, reactor, emoji, txId, blockTime FROM reaction ORDER BY target, reactor")
            {
                snapshot.reactions.append(
                    ArchivedReaction(
                        target: TxID(try row.decode(String.self, atIndex: 0)),
                        reactor: try row.decode(String.self, atIndex: 1),
                        emoji: try row.decode(String?.self, atIndex: 2),
                        txID: TxID(try row.decode(String.self, atIndex: 3)),
                        blockTime: UInt64(max(0, try row.decode(Int64.self, atIndex: 4)))))
            }
            return snapshot
        }
    }

    /// Merges a backup in one transaction, never overwriting: deletions apply (this history's or
    /// the backup's, whichever reaches later); a message the history lacks is added; a message it
    /// holds keeps its identity, times and text, and only gains what it lacks (a text, an amount,
    /// a root) or a later status (never a payment's: that is its verification), and only from a
    /// copy of the same conversation, direction and kind; a read mark only moves forward;
    /// reactions follow the newest.
    /// Merging the same backup twice changes nothing the second time.
    @discardableResult
    public func merge(_ snapshot: ChatHistorySnapshot) throws -> ArchiveMergeCount {
        for message in snapshot.messages { try Self.checkRange(message) }
        for (_, through) in snapshot.deletedConversations where through > ChatSyncRecord.exactLimit {
            throw ChatHistoryError.blockTimeOutOfRange(through)
        }
        return try writer.write { db in
            var count = ArchiveMergeCount()
            for (conversation, through) in snapshot.deletedConversations.sorted(by: {
                $0.key.rawValue < $1.key.rawValue
            }) {
                count.deleted += try Self.deleteConversation(conversation, through: through, in: db)
            }
            for message in snapshot.messages { try Self.mergeArchived(message, in: db, count: &count) }
            for reaction in snapshot.reactions where reaction.blockTime <= UInt64(Int64.max) {
                if try Self.react(reaction, in: db) { count.reactions += 1 }
            }
            for (conversation, key) in snapshot.readMarks.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                if try Self.moveReadMark(conversation, to: key, in: db) { count.readMarks += 1 }
            }
            for (conversation, txID) in snapshot.readThrough.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                guard snapshot.readMarks[conversation] == nil, let row = try Self.fetchMessage(txID: txID, in: db),
                    row.conversation == conversation
                else { continue }
                if try Self.moveReadMark(conversation, to: row.key, in: db) { count.readMarks += 1 }
            }
            return count
        }
    }

    private static func mergeArchived(_ archived: StoredMessage, in db: Database, count: inout ArchiveMergeCount)
        throws
    {
        var message = archived
        message.reactions = []
        if let txID = message.txID, let existing = try fetchMessage(txID: txID, in: db) {
            // The history's row wins; the backup fills its gaps and may only raise its status.
            // A copy that disagrees on whose message it is, or what, fills nothing.
            guard existing.conversation == message.conversation, existing.direction == message.direction,
                existing.kind == message.kind
            else {
                count.mismatched += 1
                return
            }
            var filled = existing
            filled.body = existing.body ?? message.body
            filled.amountSompi = existing.amountSompi ?? message.amountSompi
            filled.root = existing.root ?? message.root
            // A payment's status is its verification (issue 50 item 7): only the chain raises it.
            if message.status.rank > existing.status.rank && existing.kind != .payment {
                filled.status = message.status
            }
            message = filled
        } else if let holder = try fetchMessage(message.id, in: db), holder.txID != message.txID {
            // The backup's UUID names another message here: this one gets a UUID of its own.
            message.id = MessageID(UUID())
        }
        switch try save(message, in: db) {
        case .inserted: count.added += 1
        case .updated, .merged: count.updated += 1
        case .unchanged: count.unchanged += 1
        case .discarded: count.discarded += 1
        }
    }

    /// Sets the mark when there is none or `key` is later; says whether it did.
    private static func moveReadMark(_ conversation: ConversationID, to key: MessageKey, in db: Database) throws
        -> Bool
    {
        guard key.blockTime <= UInt64(Int64.max) else { return false }
        if let current = try fetchReadMark(conversation, in: db), current >= key { return false }
        try writeReadMark(conversation, key, in: db)
        return true
    }
}
