/// Everything that can happen to a timeline, fed to `TimelineEngine.apply(_:)` one at a time
/// (timeline-and-contacts.md §2.3).
public enum TimelineEvent: Sendable {
    /// The scroll view's size or insets changed (rotation, keyboard).
    case viewportChanged(TimelineViewport)
    /// The user (or momentum) moved the content; never echo the engine's own offsets back.
    case userScrolled(offset: Double)
    case dragBegan
    case dragEnded(willDecelerate: Bool)
    case decelerationEnded
    case pageLoaded(token: PageToken, page: TimelinePage)
    case pageFailed(token: PageToken)
    /// The shell's backoff after `pagingFailed` elapsed: try the failed request again.
    case retryPaging
    /// Live messages from the network or from this device, usually newest.
    case tailArrived([TimelineItem])
    /// Insert or update one message: status change, pending → sent promotion, key change, backfill.
    case upsert(TimelineItem)
    case delete([MessageID])
    /// The laid-out height of a row differs from what the engine assumed.
    case heightChanged(MessageID, height: Double)
    /// The user tapped "jump to newest".
    case jumpToBottom
    /// Open (or switch to) a conversation; replies to earlier requests are ignored from now on.
    case reset(TimelinePlacement)
}
