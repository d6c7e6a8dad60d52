/// Which conversation a message belongs to: the contact's Kaspa address in KaChat
/// (kasia-protocol.md §9 `contactAddress`). Opaque to the store.
public struct ConversationID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    public init(_ rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}
