/// A member of a partial update that can be replaced or cleared: the wire tells "leave as is"
/// (member absent, `nil` around this) from "clear" (`null`).
public enum Clearable<Wrapped: Sendable & Equatable>: Sendable, Equatable {
    case set(Wrapped)
    case clear

    /// The new value: `nil` when cleared.
    public var value: Wrapped? {
        if case .set(let wrapped) = self { wrapped } else { nil }
    }
}
