import TandemBasics

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
    /// non-negative walls. Written byte by byte: the store encodes five stamps per row.
    public var description: String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(21 + replica.rawValue.utf8.count)
        let wall = String(wallMillis).utf8
        if wall.count < 15 { bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 15 - wall.count)) }
        bytes.append(contentsOf: wall)
        bytes.append(UInt8(ascii: "-"))
        Hex.append(UInt8(counter >> 8), to: &bytes)
        Hex.append(UInt8(counter & 0xFF), to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        bytes.append(contentsOf: replica.rawValue.utf8)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Parses ``description``.
    public init(parsing text: String) throws(ContactsError) {
        var wall: Int64 = 0
        var counter: UInt16 = 0
        var digits = 0
        var hexCount = 0
        var part = 0
        var replicaStart: String.UTF8View.Index?
        let utf8 = text.utf8
        scan: for index in utf8.indices {
            let byte = utf8[index]
            switch part {
            case 0:
                if byte == UInt8(ascii: "-"), digits > 0 {
                    part = 1
                    continue
                }
                guard (0x30...0x39).contains(byte), digits < 18 else { throw .invalidTimestamp(text) }
                wall = wall * 10 + Int64(byte - 0x30)
                digits += 1
            case 1:
                if byte == UInt8(ascii: "-"), hexCount == 4 {
                    part = 2
                    replicaStart = utf8.index(after: index)
                    break scan
                }
                guard hexCount < 4, let nibble = Hex.lowercaseNibble(byte) else { throw .invalidTimestamp(text) }
                counter = counter << 4 | UInt16(nibble)
                hexCount += 1
            default:
                break scan
            }
        }
        guard let replicaStart else { throw .invalidTimestamp(text) }
        let replica: ReplicaID
        do { replica = try ReplicaID(String(text[replicaStart...])) } catch { throw .invalidTimestamp(text) }
        self.init(wallMillis: wall, counter: counter, replica: replica)
    }
}
