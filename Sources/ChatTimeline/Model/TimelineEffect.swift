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
