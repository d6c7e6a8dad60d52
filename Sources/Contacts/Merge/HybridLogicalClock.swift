/// A hybrid logical clock for one replica (timeline-and-contacts §3.2).
///
/// A pure value: the store feeds it physical time from an injected `WallClock` (TandemBasics) and persists
/// ``last``. Skewed device clocks cannot decide a conflict against causality: ``observe(_:)``
/// moves the clock past every remote stamp, so an edit made after seeing a remote one (even from
/// a device an hour ahead) always stamps higher (§3.5 scenario 1).
public struct HybridLogicalClock: Sendable, Hashable {
    public let replica: ReplicaID
    /// The highest (wall, counter) issued or observed.
    public private(set) var lastWallMillis: Int64
    public private(set) var lastCounter: UInt16

    public init(replica: ReplicaID, lastWallMillis: Int64 = 0, lastCounter: UInt16 = 0) {
        self.replica = replica
        self.lastWallMillis = lastWallMillis
        self.lastCounter = lastCounter
    }

    /// A new stamp, strictly above everything issued or observed so far.
    public mutating func tick(physicalMillis: Int64) -> HLCTimestamp {
        if physicalMillis > lastWallMillis {
            lastWallMillis = physicalMillis
            lastCounter = 0
        } else if lastCounter == .max {
            // Counter exhausted within one millisecond: borrow the next millisecond rather than fail.
            lastWallMillis += 1
            lastCounter = 0
        } else {
            lastCounter += 1
        }
        return HLCTimestamp(wallMillis: lastWallMillis, counter: lastCounter, replica: replica)
    }

    /// Advances past a stamp received from another replica.
    public mutating func observe(_ stamp: HLCTimestamp) {
        if (stamp.wallMillis, stamp.counter) > (lastWallMillis, lastCounter) {
            lastWallMillis = stamp.wallMillis
            lastCounter = stamp.counter
        }
    }
}
