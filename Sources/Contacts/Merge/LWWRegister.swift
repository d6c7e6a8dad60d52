/// A value that can live in a last-writer-wins register: it needs a total order to break the
/// one tie stamps cannot (two migrated values, both at ``HLCTimestamp/legacyFloor``).
public protocol RegisterValue: Sendable, Hashable, Codable {
    /// A strict total order on values, used only when stamps are equal.
    static func tieBreakPrecedes(_ lhs: Self, _ rhs: Self) -> Bool
}

extension String: RegisterValue {
    /// Byte order of UTF-8, never Swift's canonical-equivalence order, so every platform agrees.
    public static func tieBreakPrecedes(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}

extension Bool: RegisterValue {
    public static func tieBreakPrecedes(_ lhs: Bool, _ rhs: Bool) -> Bool { !lhs && rhs }
}

/// A per-field last-writer-wins register (timeline-and-contacts §3.3): the higher stamp wins;
/// equal stamps (only possible for migrated floor values) fall back to the value order.
/// Merging is commutative, associative and idempotent because it picks the maximum of a total
/// order on (stamp, value).
public struct LWWRegister<Value: RegisterValue>: Sendable, Hashable {
    public let value: Value
    public let stamp: HLCTimestamp

    public init(_ value: Value, stamp: HLCTimestamp) {
        self.value = value
        self.stamp = stamp
    }

    public func merged(with other: LWWRegister<Value>) -> LWWRegister<Value> {
        if other.stamp != stamp { return other.stamp > stamp ? other : self }
        return Value.tieBreakPrecedes(value, other.value) ? other : self
    }
}
