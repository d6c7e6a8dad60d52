/// A hybrid logical clock stamp: (wall milliseconds, counter, replica), ordered in that order
/// (timeline-and-contacts §3.2, as Actual Budget does it).
///
/// The wall part follows real time when device clocks agree; the counter and the "advance past
/// every stamp seen" rule of ``HybridLogicalClock`` make an edit made after seeing another always
/// stamp higher, whatever the device clocks say. The replica breaks ties between devices.
public struct HLCTimestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let wallMillis: Int64
    public let counter: UInt16
    public let replica: ReplicaID

    public init(wallMillis: Int64, counter: UInt16, replica: ReplicaID) {
        self.wallMillis = wallMillis
        self.counter = counter
        self.replica = replica
    }

    /// The stamp of migrated legacy values: below every stamp a real clock issues (§3.3 "floor
    /// stamps (wall = 0, node `legacy`)"), so any real edit on any device beats them.
    public static let legacyFloor = HLCTimestamp(wallMillis: 0, counter: 0, replica: .legacy)

    public static func < (lhs: HLCTimestamp, rhs: HLCTimestamp) -> Bool {
        if lhs.wallMillis != rhs.wallMillis { return lhs.wallMillis < rhs.wallMillis }
        if lhs.counter != rhs.counter { return lhs.counter < rhs.counter }
        return lhs.replica < rhs.replica
    }

    /// `<wall ms, 15 digits>-<counter, 4 hex>-<replica>`: sorts as text in stamp order for
    /// non-negative walls.
    public var description: String {
        let wall = String(wallMillis)
        let counterHex = String(counter, radix: 16)
        return String(repeating: "0", count: max(0, 15 - wall.count)) + wall + "-"
            + String(repeating: "0", count: 4 - counterHex.count) + counterHex + "-" + replica.rawValue
    }

    /// Parses ``description``.
    public init(parsing text: String) throws(ContactsError) {
        let parts = text.split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[1].utf8.count == 4,
              let wall = Int64(parts[0]), wall >= 0,
              let counter = UInt16(parts[1], radix: 16)
        else { throw .invalidTimestamp(text) }
        let replica: ReplicaID
        do { replica = try ReplicaID(String(parts[2])) } catch { throw .invalidTimestamp(text) }
        self.init(wallMillis: wall, counter: counter, replica: replica)
    }
}
