/// How the rendered window changed in one event, by stable id; apply it as one batch update.
public struct WindowDiff: Hashable, Sendable {
    public var inserted: [MessageID] = []
    public var removed: [MessageID] = []
    /// Rows whose key changed, so they sit at a new index.
    public var moved: [MessageID] = []
    /// Rows whose content or status changed in place.
    public var updated: [MessageID] = []

    public init() {}

    public var isEmpty: Bool { inserted.isEmpty && removed.isEmpty && moved.isEmpty && updated.isEmpty }
}
