import Foundation

/// The one ordering of a conversation: `(blockTime, timestamp, id)`, oldest first.
///
/// The key is total (the UUID breaks every tie) and immutable per message revision, so a keyset
/// cursor built from it never skips or repeats a row. `ChatHistory` orders rows with
/// `ORDER BY blockTime, timestamp, id` where `id` is the 16-byte BLOB; `<` here compares the same
/// fields the same way (timeline-and-contacts.md §1.5, §2.1).
public struct MessageKey: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Block header time in milliseconds; for a local pending message, its send time.
    public var blockTime: UInt64
    /// Message timestamp in milliseconds.
    public var timestamp: Int64
    public var id: MessageID

    public init(blockTime: UInt64, timestamp: Int64, id: MessageID) {
        self.blockTime = blockTime
        self.timestamp = timestamp
        self.id = id
    }

    public static func < (lhs: MessageKey, rhs: MessageKey) -> Bool {
        if lhs.blockTime != rhs.blockTime { return lhs.blockTime < rhs.blockTime }
        if lhs.timestamp != rhs.timestamp { return lhs.timestamp < rhs.timestamp }
        return lhs.id < rhs.id
    }

    public var description: String { "(\(blockTime), \(timestamp), \(id))" }
}

extension MessageKey {
    /// The key as a cursor a client hands back: `BLOCKTIME:TIMESTAMP:UUID` (what `tandem chat
    /// history --json` prints as `before`, and `tandem app`'s pages carry).
    public var cursorText: String { "\(blockTime):\(timestamp):\(id.uuid.uuidString)" }

    /// Reads ``cursorText``; nil for anything else.
    public init?(cursorText text: String) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let blockTime = UInt64(parts[0]), let timestamp = Int64(parts[1]),
            let uuid = UUID(uuidString: String(parts[2]))
        else { return nil }
        self.init(blockTime: blockTime, timestamp: timestamp, id: MessageID(uuid))
    }
}
