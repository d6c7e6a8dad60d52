/// Bookkeeping for one `apply(_:)` call: the anchor captured before the first mutation, the
/// window diff, and the single offset change to emit (timeline-and-contacts.md §2.5).
struct TimelineTransaction {
    let startOffset: Double
    let startUnseen: Int
    var cause: CorrectionCause?
    /// An absolute move decided by this event; it wins over an anchor correction.
    var absoluteReason: OffsetReason?
    var followedTail = false
    var anchor: CapturedAnchor?
    var anchorCaptured = false
    var wasFollowingTail = false
    var diff = WindowDiff()
    var moved: Set<MessageID> = []
    var request: PageRequest?
    var cancelled: [PageToken] = []
    var failedAttempt: Int?

    init(startOffset: Double, startUnseen: Int) {
        self.startOffset = startOffset
        self.startUnseen = startUnseen
    }

    /// The window and geometry before this event's first mutation.
    struct CapturedAnchor {
        let items: [TimelineItem]
        let prefix: [Double]
        let offset: Double
        let index: Int
    }

    func effects(engine: TimelineEngine) -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        if !diff.isEmpty { effects.append(.windowChanged(diff)) }
        if abs(engine.contentOffset - startOffset) > 1e-9 {
            let reason: OffsetReason
            if let absoluteReason {
                reason = absoluteReason
            } else if followedTail {
                reason = .followTail
            } else {
                reason = .anchorCorrection(cause ?? .reveal)
            }
            effects.append(.setContentOffset(engine.contentOffset, reason: reason))
        }
        if engine.unseenCount != startUnseen { effects.append(.unseenCountChanged(engine.unseenCount)) }
        if let failedAttempt { effects.append(.pagingFailed(attempt: failedAttempt)) }
        effects.append(contentsOf: cancelled.map(TimelineEffect.cancelRequest))
        if let request { effects.append(.requestPage(request)) }
        return effects
    }
}
