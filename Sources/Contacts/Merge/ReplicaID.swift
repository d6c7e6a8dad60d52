import TandemBasics

/// One device's store: the node id inside every HLC stamp, so two devices never issue the same
/// stamp and equal wall times still order deterministically (timeline-and-contacts §3.2).
public struct ReplicaID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let rawValue: String

    /// 1–32 characters from `0-9a-z`.
    public init(_ text: String) throws(ContactsError) {
        guard (1...32).contains(text.utf8.count),
            text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x7a).contains($0) })
        else { throw .invalidReplicaID(text) }
        rawValue = text
    }

    private init(unchecked: String) { rawValue = unchecked }

    /// The node of the floor stamps given to migrated legacy values (§3.3 "node `legacy`").
    public static let legacy = ReplicaID(unchecked: "legacy")

    /// A fresh random id: 12 lowercase hex characters (48 bits; a user has a handful of devices).
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> ReplicaID {
        let value = UInt64.random(in: 0..<(1 << 48), using: &generator)
        return ReplicaID(
            unchecked: Hex.encode((0..<6).map { UInt8(truncatingIfNeeded: value >> (40 - 8 * UInt64($0))) }))
    }

    public var description: String { rawValue }

    public static func < (lhs: ReplicaID, rhs: ReplicaID) -> Bool {
        lhs.rawValue.utf8.lexicographicallyPrecedes(rhs.rawValue.utf8)
    }
}
