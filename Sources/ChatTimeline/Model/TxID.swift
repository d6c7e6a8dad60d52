/// The network identity of a message: the Kaspa transaction id (kasia-protocol.md §8).
///
/// Unknown while a message is pending; once known it deduplicates deliveries. It is never the
/// UI identity, because it changes on pending → sent.
public struct TxID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
