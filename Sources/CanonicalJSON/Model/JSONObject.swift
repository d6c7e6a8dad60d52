/// A JSON object whose members are kept in RFC 8785 order (UTF-16 code units of the names).
///
/// Keeping the canonical order at construction makes serialization a straight walk and makes
/// duplicate detection an adjacent comparison (I-JSON forbids duplicate names, spec §2).
public struct JSONObject: Sendable, Equatable {
    /// One name/value pair.
    public struct Member: Sendable, Equatable {
        public let key: String
        public let value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }

        public static func == (lhs: Member, rhs: Member) -> Bool {
            KeyOrder.bytesEqual(lhs.key, rhs.key) && lhs.value == rhs.value
        }
    }

    /// Members sorted by the UTF-16 code units of their names, no two with equal names.
    public let members: [Member]

    /// An empty object.
    public init() { members = [] }

    /// Builds an object from members in any order; throws on a repeated name (byte-wise).
    public init(_ pairs: [(String, JSONValue)]) throws(CanonicalJSONError) {
        try self.init(members: pairs.map { Member(key: $0.0, value: $0.1) })
    }

    /// Builds an object from members in any order; throws on a repeated name (byte-wise).
    public init(members unsorted: [Member]) throws(CanonicalJSONError) {
        try self.init(members: unsorted, inOrder: KeyOrder.isSorted(unsorted))
    }

    /// Members whose order the caller has already checked (`inOrder`: `KeyOrder.isSorted`).
    init(members unsorted: [Member], inOrder: Bool) throws(CanonicalJSONError) {
        var sorted = unsorted
        if !inOrder {
            sorted.sort { KeyOrder.precedes($0.key, $1.key) }
        }
        var index = 1
        while index < sorted.count {
            if KeyOrder.bytesEqual(sorted[index - 1].key, sorted[index].key) {
                throw .duplicateKey(sorted[index].key)
            }
            index += 1
        }
        members = sorted
    }

    /// The number of members.
    public var count: Int { members.count }

    /// The value of the member named `key` (byte-exact name match).
    public subscript(key: String) -> JSONValue? {
        // Names are read in place, not copied out with their values.
        members.withUnsafeBufferPointer { members in
            for index in members.indices where KeyOrder.bytesEqual(members[index].key, key) {
                return members[index].value
            }
            return nil
        }
    }

    /// The names of all members, in canonical order.
    public var keys: [String] { members.map(\.key) }

    /// A copy without the members named in `removed` (used to form a node body, spec §3).
    public func removing(_ removed: Set<String>) -> JSONObject {
        JSONObject(sortedMembers: members.filter { !removed.contains($0.key) })
    }

    /// Trusted initializer for members already in canonical order without duplicates.
    init(sortedMembers: [Member]) { members = sortedMembers }
}
