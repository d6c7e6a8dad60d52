/// The headless timeline: a pure state machine that decides content offsets, window contents and
/// page requests for one conversation list (timeline-and-contacts.md §2).
///
/// The shell (a UIKit/SwiftUI adapter, or the simulation harness) feeds `TimelineEvent`s and
/// performs the returned `TimelineEffect`s. There are no timers and no I/O: paging is a request
/// effect answered by a later `pageLoaded`/`pageFailed` event. Geometry is one axis in points,
/// oldest row at the top, offsets in UIKit's convention.
public struct TimelineEngine: Sendable {
    public let configuration: TimelineConfiguration
    let measure: @Sendable (TimelineItem) -> Double

    /// The rendered window, strictly increasing by key.
    public internal(set) var items: [TimelineItem] = []
    /// Loaded rows older than `items.first`, not rendered yet: the warm backlog (§2.6).
    public internal(set) var backlog: [TimelineItem] = []
    var heights: [MessageID: Double] = [:]
    var prefix: [Double] = [0]
    var indexByID: [MessageID: Int] = [:]
    /// First UUID seen for a txId wins for the life of the conversation (§2.2).
    var identity: [TxID: MessageID] = [:]

    public internal(set) var viewport = TimelineViewport(height: 0)
    /// The engine's view of the scroll view's content offset (viewport top in content space).
    public internal(set) var contentOffset: Double = 0
    public internal(set) var isPinnedToBottom = true
    public internal(set) var isDragging = false
    public internal(set) var isDecelerating = false
    /// Live messages that arrived below while the reader was scrolled up.
    public internal(set) var unseenCount = 0

    /// Every row with a key at or above this is loaded (down to `newestCursor`); `nil` before the
    /// first page.
    public internal(set) var oldestCursor: MessageKey?
    /// The newest loaded raw key when the window is detached from the live tail.
    public internal(set) var newestCursor: MessageKey?
    public internal(set) var olderExhausted = false
    /// Whether the window reaches the newest message, so live arrivals can be appended.
    public internal(set) var atLiveTail = true
    /// The single page request in flight, if any.
    public internal(set) var inFlight: PageRequest?
    /// Whether a first page arrived since the last reset.
    public internal(set) var hasLoaded = false
    var nextToken: UInt64 = 0
    var lastOlderCursorServed: MessageKey?
    var pausedAfterFailure = false
    public internal(set) var consecutiveFailures = 0
    /// Set while a `.newest` page is awaited, with the move to make once it arrives.
    var awaitingNewest: OffsetReason?
    var placement: TimelinePlacement = .bottom
    /// An absolute move postponed because the user was dragging or the list decelerating.
    var deferredPlacement = false

    /// - Parameters:
    ///   - configuration: page size, warm backlog, reveal distance, window cap (§2.6).
    ///   - measure: the first height of a row (a sizing cache in an app, deterministic
    ///   per-row heights in the harness). Later differences arrive as `heightChanged`.
    public init(
        configuration: TimelineConfiguration = TimelineConfiguration(),
        measure: @escaping @Sendable (TimelineItem) -> Double
    ) {
        self.configuration = configuration
        self.measure = measure
    }

    /// Whether the user's finger or momentum is moving the list: absolute moves wait (§2.5).
    public var isInteracting: Bool { isDragging || isDecelerating }

    /// Whether new live rows should be followed by scrolling to the bottom.
    var isFollowingTail: Bool { isPinnedToBottom && atLiveTail }

    public var contentHeight: Double { prefix.last ?? 0 }
    public var minOffset: Double { -viewport.topInset }
    public var maxOffset: Double {
        max(minOffset, contentHeight + viewport.bottomInset - viewport.height)
    }

    /// Top edge of a rendered row in content space, or `nil` when it is not in the window.
    public func minY(of id: MessageID) -> Double? {
        indexByID[id].map { prefix[$0] }
    }

    /// The height the engine assumes for a rendered or backlog row.
    public func height(of id: MessageID) -> Double? { heights[id] }

    /// Position of a rendered row in `items`, or `nil` when it is not in the window: what a
    /// collection-view shell needs to turn a `WindowDiff` into index paths (§2.4).
    public func index(of id: MessageID) -> Int? { indexByID[id] }

    /// Top edge in content space of the rendered row at `index` (`items.count` gives
    /// `contentHeight`): a shell's layout attributes come from this, so rows sit exactly where
    /// the engine's offsets assume (§2.5).
    public func minY(at index: Int) -> Double { prefix[index] }

    /// Applies one event and returns what the shell must do, in order: window diff, at most one
    /// offset change, unseen count, page request.
    public mutating func apply(_ event: TimelineEvent) -> [TimelineEffect] {
        if case .userScrolled(let offset) = event {
            contentOffset = offset
            refreshPin()
        }
        var tx = TimelineTransaction(startOffset: contentOffset, startUnseen: unseenCount)
        switch event {
        case .viewportChanged(let newViewport):
            begin(&tx, .viewportChanged)
            viewport = newViewport
            end(&tx)
        case .userScrolled:
            break
        case .dragBegan:
            isDragging = true
        case .dragEnded(let willDecelerate):
            isDragging = false
            isDecelerating = willDecelerate
            if !willDecelerate { settle(&tx) }
        case .decelerationEnded:
            isDecelerating = false
            settle(&tx)
        case .pageLoaded(let token, let page):
            pageLoaded(token: token, page: page, &tx)
        case .pageFailed(let token):
            pageFailed(token: token, &tx)
        case .retryPaging:
            pausedAfterFailure = false
        case .tailArrived(let arrivals):
            tailArrived(arrivals, &tx)
        case .upsert(let item):
            begin(&tx, .upsert)
            incorporate(item, &tx)
            end(&tx)
        case .delete(let ids):
            begin(&tx, .delete)
            remove(Set(ids), &tx)
            end(&tx)
        case .heightChanged(let id, let height):
            heightChanged(id, height: height, &tx)
        case .jumpToBottom:
            jumpToBottom(&tx)
        case .reset(let newPlacement):
            reset(newPlacement, &tx)
        }
        revealAndTrim(&tx)
        evaluatePaging(&tx)
        return tx.effects(engine: self)
    }
}
