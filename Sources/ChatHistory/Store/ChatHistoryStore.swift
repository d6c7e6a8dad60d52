public import ChatTimeline
import Foundation
import GRDB

/// The message store of one wallet: one SQLite file, every conversation in it
/// (timeline-and-contacts.md §1.5; kasia-protocol.md §9).
///
/// Invariants kept by every write: a row's UUID is assigned once and never regenerated; a txId
/// names at most one row and the first UUID seen for it wins forever; pending → sent updates the
/// row in place. Reads page by keyset on `(blockTime, timestamp, id)`, the same order
/// `MessageKey` has in Swift.
public struct ChatHistoryStore: Sendable {
    let writer: any DatabaseWriter

    /// Opens (creating if needed) the wallet's history file, in WAL mode, and migrates it.
    public init(path: String) throws {
        // Several processes may share a profile (`tandem chat listen` beside `tandem chat send`):
        // a writer waits for the other's transaction instead of failing with SQLITE_BUSY.
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        try self.init(writer: DatabasePool(path: path, configuration: configuration))
    }

    /// A private in-memory store, for tests and tools.
    public static func inMemory() throws -> ChatHistoryStore {
        try ChatHistoryStore(writer: DatabaseQueue())
    }

    init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Stores a message or folds it into the row it duplicates; see `SaveOutcome`.
    @discardableResult
    public func save(_ message: StoredMessage) throws -> SaveOutcome {
        try Self.checkRange(message)
        return try writer.write { db in try Self.save(message, in: db) }
    }

    /// Saves many messages in one transaction (live bursts, sync batches, fixtures).
    @discardableResult
    public func save(contentsOf messages: [StoredMessage]) throws -> [SaveOutcome] {
        for message in messages { try Self.checkRange(message) }
        return try writer.write { db in try messages.map { try Self.save($0, in: db) } }
    }

    /// Pending → sent (or failed): the same row, same UUID, gains its txId and chain time.
    @discardableResult
    public func promote(
        _ id: MessageID, txID: TxID, blockTime: UInt64, status: DeliveryStatus = .sent
    ) throws -> SaveOutcome? {
        try writer.write { db in
            guard var message = try Self.fetchMessage(id, in: db) else { return nil }
            message.txID = txID
            message.blockTime = blockTime
            message.status = status
            try Self.checkRange(message)
            return try Self.save(message, in: db)
        }
    }

    /// Confirmed → sent for the rows of `txIDs`: a chain reorg undid their transactions'
    /// acceptance (issue 24). Status otherwise only moves forward (``save(_:)``); a later
    /// confirmation moves these rows forward again. Returns how many rows changed.
    @discardableResult
    public func unconfirm(txIDs: some Sequence<TxID>) throws -> Int {
        try writer.write { db in
            var count = 0
            for txID in txIDs {
                try db.execute(
                    sql: "UPDATE message SET status = ? WHERE txId = ? AND status = ?",
                    arguments: [DeliveryStatus.sent.rawValue, txID.rawValue, DeliveryStatus.confirmed.rawValue])
                count += db.changesCount
            }
            return count
        }
    }

    /// Deletes rows by id; unknown ids are ignored. Returns how many rows went.
    @discardableResult
    public func delete(_ ids: [MessageID]) throws -> Int {
        try writer.write { db in
            var count = 0
            for id in ids {
                try db.execute(sql: "DELETE FROM message WHERE id = ?", arguments: [Data(id.bytes)])
                count += db.changesCount
            }
            return count
        }
    }

    public func message(_ id: MessageID) throws -> StoredMessage? {
        try writer.read { db in try Self.fetchMessage(id, in: db) }
    }

    public func message(txID: TxID) throws -> StoredMessage? {
        try writer.read { db in try Self.fetchMessage(txID: txID, in: db) }
    }

    public func count(in conversation: ConversationID) throws -> Int {
        try writer.read { db in
            try Int.fetchOne(
                db, sql: "SELECT COUNT(*) FROM message WHERE conversation = ?", arguments: [conversation.rawValue]) ?? 0
        }
    }

    /// Whether we ever wrote in the conversation (a handshake, a message, a payment): a peer
    /// who wrote first and has no outgoing row still waits for our answer.
    public func hasOutgoing(in conversation: ConversationID) throws -> Bool {
        try writer.read { db in
            try Bool.fetchOne(
                db,
                sql: "SELECT EXISTS (SELECT 1 FROM message WHERE conversation = ? AND direction = 'outgoing')",
                arguments: [conversation.rawValue]) ?? false
        }
    }

    static func checkRange(_ message: StoredMessage) throws {
        guard message.blockTime <= UInt64(Int64.max) else {
            throw ChatHistoryError.blockTimeOutOfRange(message.blockTime)
        }
        if let amount = message.amountSompi, amount > UInt64(Int64.max) {
            throw ChatHistoryError.amountOutOfRange(amount)
        }
    }
}
