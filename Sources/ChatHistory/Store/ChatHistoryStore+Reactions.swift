public import ChatTimeline
import GRDB

/// KaChat's reactions (issue 43 item 4): `{"type":"reaction","targetTxId","emoji","action"}`
/// envelopes inside a peer's sealed message. Each reactor has one reaction per target message,
/// the newest by block time (ties: the larger tx id); a removal is kept as a row without emoji.
/// A reaction may arrive before its target: it is kept and shows once the target is stored.
extension ChatHistoryStore {
    /// Applies one reaction of `reactor` to the message `target`: `emoji` nil removes theirs.
    /// Returns whether it changed what the target shows; a replay, or a reaction older than
    /// the reactor's last one on that message, changes nothing.
    @discardableResult
    public func react(target: TxID, reactor: String, emoji: String?, txID: TxID, blockTime: UInt64) throws -> Bool {
        guard blockTime <= UInt64(Int64.max) else { throw ChatHistoryError.blockTimeOutOfRange(blockTime) }
        let reaction = ArchivedReaction(
            target: target, reactor: reactor, emoji: emoji, txID: txID, blockTime: blockTime)
        return try writer.write { db in try Self.react(reaction, in: db) }
    }

    static func react(_ reaction: ArchivedReaction, in db: Database) throws -> Bool {
        let before = try Row.fetchOne(
            db, sql: "SELECT emoji, txId, blockTime FROM reaction WHERE target = ? AND reactor = ?",
            arguments: [reaction.target.rawValue, reaction.reactor])
        if let before {
            let known = (try before.decode(Int64.self, atIndex: 2), try before.decode(String.self, atIndex: 1))
            guard (Int64(reaction.blockTime), reaction.txID.rawValue) > known else { return false }
        }
        try db.execute(
            sql: "INSERT OR REPLACE INTO reaction (target, reactor, emoji, txId, blockTime) VALUES (?, ?, ?, ?, ?)",
            arguments: [
                reaction.target.rawValue, reaction.reactor, reaction.emoji, reaction.txID.rawValue,
                Int64(reaction.blockTime),
            ])
        return try before.flatMap { try $0.decode(String?.self, atIndex: 0) } != reaction.emoji
    }
}
