/// Why the routing store or a legacy snapshot could not be used.
public enum RoutingStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The snapshot file is not a JSON object of the documented shape.
    case invalidSnapshot(String)
    /// A stored row no longer decodes (a newer schema, or damage).
    case corruptRow(contact: String, reason: String)

    public var description: String {
        switch self {
        case .invalidSnapshot(let reason): "legacy snapshot: \(reason)"
        case .corruptRow(let contact, let reason): "routing state for \(contact) is unreadable: \(reason)"
        }
    }
}
