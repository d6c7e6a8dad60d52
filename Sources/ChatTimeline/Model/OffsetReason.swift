/// Why the engine moved the content offset (timeline-and-contacts.md §2.4).
public enum OffsetReason: Hashable, Sendable {
    case initialPlacement
    /// A relative correction that keeps the anchor row where the reader saw it.
    case anchorCorrection(CorrectionCause)
    case followTail
    case userJumpToBottom
}
