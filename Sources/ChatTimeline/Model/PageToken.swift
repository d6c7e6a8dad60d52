/// Identifies one page request so that replies to an abandoned request can be dropped
/// (timeline-and-contacts.md §2.6 "Response").
public struct PageToken: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: PageToken, rhs: PageToken) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "#\(rawValue)" }
}
