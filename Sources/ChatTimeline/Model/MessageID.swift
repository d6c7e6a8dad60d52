public import Foundation

/// The stable UI identity of a message: a UUID assigned once, stored once, never regenerated.
///
/// Ordering compares the 16 bytes of the UUID lexicographically, which is exactly how SQLite
/// orders the same value stored as a 16-byte BLOB (`memcmp`), so Swift and SQL agree
/// (timeline-and-contacts.md §1.5, §2.1).
public struct MessageID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let uuid: UUID

    public init(_ uuid: UUID) { self.uuid = uuid }

    /// The 16 bytes in network order, as stored in SQL.
    public var bytes: [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    /// Rebuilds an identifier from 16 stored bytes; `nil` when the count is not 16.
    public init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        var tuple: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &tuple) { raw in
            for (offset, byte) in bytes.enumerated() { raw[offset] = byte }
        }
        self.uuid = UUID(uuid: tuple)
    }

    public static func < (lhs: MessageID, rhs: MessageID) -> Bool {
        let l = lhs.uuid.uuid
        let r = rhs.uuid.uuid
        return withUnsafeBytes(of: l) { lb in
            withUnsafeBytes(of: r) { rb in
                for index in 0..<16 where lb[index] != rb[index] {
                    return lb[index] < rb[index]
                }
                return false
            }
        }
    }

    public var description: String { uuid.uuidString }
}
