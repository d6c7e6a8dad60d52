public import CanonicalJSON

/// A MERGE strategy (spec §5, §9).
public enum MergeStrategy: String, Sendable, CaseIterable {
    case ours, theirs, union, lww, manual, max, min
}

/// Keys compared, in order, to find the last-writer parent (spec §9).
public enum LWWTiebreaker: String, Sendable, CaseIterable {
    case lamport, wall, author
}

/// `policy` of a MERGE; absent members take the spec's defaults.
public struct MergePolicy: Sendable {
    public var defaultStrategy: MergeStrategy = .lww
    public var lwwTiebreakers: [LWWTiebreaker] = [.lamport, .wall, .author]
    public var arrayStrategy: MergeStrategy = .union

    public init() {}
}

/// One explicit resolution of a field (spec §5 FieldResolution).
public struct FieldResolution: Sendable {
    public let path: String
    public let strategy: MergeStrategy
    public let chosenParent: NodeID?
    public let value: JSONValue?
    public let notes: String?
}

/// Resolutions for one todo's fields.
public struct TodoResolution: Sendable {
    public let todo: TodoID
    public let fields: [FieldResolution]
}

/// The payload of a MERGE (spec §5, §9, RES-16).
public struct MergeSpec: Sendable {
    public let base: NodeID
    public let policy: MergePolicy
    public let taskResolutions: [FieldResolution]
    public let todoResolutions: [TodoResolution]
}
