/// Why the engine moved the content offset (timeline-and-contacts.md §2.4).
public enum OffsetReason: Hashable, Sendable {
    case initialPlacement
    /// A relative correction that keeps the anchor row where the reader saw it.
    case anchorCorrection(CorrectionCause)
    case followTail
    case userJumpToBottom
}

/// The mutation an anchor correction compensated for.
public enum CorrectionCause: Hashable, Sendable {
    case reveal
    case pageLoaded
    case tailArrived
    case upsert
    case delete
    case heightChanged
    case viewportChanged
    case trim
}

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

/// What the shell must do after an event. At most one `setContentOffset` per event.
public enum TimelineEffect: Hashable, Sendable {
    case setContentOffset(Double, reason: OffsetReason)
    case windowChanged(WindowDiff)
    /// An earlier request was abandoned (reset, jump, trim); its reply will be ignored, so the
    /// shell may cancel the read.
    case cancelRequest(PageToken)
    case requestPage(PageRequest)
    case unseenCountChanged(Int)
    /// A page request failed; send `retryPaging` after a backoff that grows with `attempt`.
    case pagingFailed(attempt: Int)
}
