public import ChatHistory
public import ChatTimeline

/// The message pane of one conversation (issue 16 item 3): a `ConversationPager` (the timeline
/// engine plus keyset paging over the profile's history) measured in terminal lines.
///
/// One point of the engine is one terminal line, so the engine's anchor protocol keeps the line
/// being read on the same screen row when older pages load above it, when rows change height and
/// when the terminal is resized (timeline-and-contacts.md §2.5). Queries run synchronously before
/// the frame is drawn, so a key press never shows a half-loaded state.
public struct MessagePane: Sendable {
    public let conversation: ConversationID
    let cache: RowCache
    public private(set) var pager: ConversationPager
    public private(set) var width = 0
    public private(set) var height = 0

    /// Small pages and a small window suit a terminal: a page fills about two screens, and the
    /// cap keeps memory flat however far back the reader scrolls (§2.6).
    public static let configuration = TimelineConfiguration(
        pageSize: 50, warmPages: 2, revealViewports: 1.5, windowCap: 300, pinTolerance: 0.5)

    public init(
        store: ChatHistoryStore, conversation: ConversationID, format: MessageFormat,
        configuration: TimelineConfiguration = MessagePane.configuration
    ) {
        let cache = RowCache(format: format)
        self.cache = cache
        self.conversation = conversation
        let engine = TimelineEngine(configuration: configuration) { [cache] item in cache.height(of: item.id) }
        pager = ConversationPager(store: store, conversation: conversation, engine: engine) { [cache] message in
            cache.store(message)
            return ConversationPager.plainItem(message)
        }
    }

    public var engine: TimelineEngine { pager.engine }
    /// Live messages that arrived below while the reader was scrolled up: the "N new" marker.
    public var unseenCount: Int { pager.engine.unseenCount }
    public var isAtBottom: Bool { pager.engine.isPinnedToBottom && pager.engine.atLiveTail }

    /// Sets the pane's size in columns and lines; the engine keeps the anchor row in place.
    public mutating func resize(width newWidth: Int, height newHeight: Int) {
        guard newWidth != width || newHeight != height else { return }
        width = max(1, newWidth)
        height = max(1, newHeight)
        cache.setWidth(width)
        pump(pager.send(.viewportChanged(TimelineViewport(height: Double(height)))))
    }

    /// Opens the conversation on its newest page, bottom-pinned.
    public mutating func open() { pump(pager.send(.reset(.bottom))) }

    /// Scrolls by `lines` (negative: towards older messages), as the user's own scroll.
    public mutating func scroll(by lines: Int) {
        let engine = pager.engine
        let target = min(max(engine.contentOffset + Double(lines), engine.minOffset), engine.maxOffset)
        pump(pager.send(.userScrolled(offset: target)))
    }

    public mutating func jumpToBottom() { pump(pager.send(.jumpToBottom)) }

    /// Shows a stored row: a `live` arrival from the peer (unseen while scrolled up), or an
    /// update of our own row (pending → sent, failed), which is placed in order.
    public mutating func show(_ message: StoredMessage, live: Bool) {
        guard message.conversation == conversation else { return }
        cache.store(message)
        let item = TimelineItem(key: message.key, txID: message.txID, kind: message.kind, status: message.status)
        pump(pager.send(live ? .tailArrived([item]) : .upsert(item)))
    }

    /// The newest failed outgoing row in the window: what Ctrl-R retries.
    public var newestFailedID: MessageID? {
        pager.engine.items.last { $0.status == .failed }?.id
    }

    /// The row at the top of the pane (the reader's anchor).
    public var topMessageID: MessageID? {
        let engine = pager.engine
        guard !engine.items.isEmpty else { return nil }
        return engine.items[firstVisibleIndex(engine)].id
    }

    /// Runs the page queries the engine asked for and settles row heights (separators, status
    /// changes), until the engine wants nothing more.
    mutating func pump(_ effects: [TimelineEffect]) {
        var retry = effects.contains { if case .pagingFailed = $0 { true } else { false } }
        for _ in 0..<8 {
            if retry {
                _ = pager.send(.retryPaging)
                retry = false
            }
            _ = pager.settle(limit: 4)
            if !reconcileHeights() && pager.pendingRequest == nil { return }
        }
    }

    /// Marks the first row of each local day for a separator and reports heights that differ
    /// from the engine's to it. Returns whether any height changed.
    mutating func reconcileHeights() -> Bool {
        let engine = pager.engine
        let loaded = engine.backlog + engine.items
        var changes: [(MessageID, Double)] = []
        var previousDay: Int64?
        for item in loaded {
            let day = cache.day(of: item.id) ?? cache.format.day(of: item.key.blockTime)
            cache.setSeparator(item.id, previousDay != day)
            previousDay = day
            if let known = engine.height(of: item.id) {
                let wanted = cache.height(of: item.id)
                if abs(known - wanted) > 0.5 { changes.append((item.id, wanted)) }
            }
        }
        if cache.count > loaded.count + 100 { cache.prune(keeping: Set(loaded.map(\.id))) }
        for (id, height) in changes { _ = pager.send(.heightChanged(id, height: height)) }
        return !changes.isEmpty
    }

    func firstVisibleIndex(_ engine: TimelineEngine) -> Int {
        let top = engine.contentOffset
        var low = 0
        var high = engine.items.count - 1
        while low < high {
            let mid = (low + high) / 2
            if engine.minY(at: mid + 1) > top + 0.5 { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Exactly `height` rows of `width` columns: the window slice under the engine's offset,
    /// bottom-aligned while the conversation is shorter than the pane.
    public func visibleLines() -> [FrameLine] {
        let engine = pager.engine
        var rows: [FrameLine] = []
        rows.reserveCapacity(height)
        let offset = Int(engine.contentOffset.rounded())
        let content = Int(engine.contentHeight.rounded())
        let padding = max(0, height - content)
        for _ in 0..<padding { rows.append(FrameLine.filled("", width: width)) }
        if !engine.items.isEmpty {
            var index = firstVisibleIndex(engine)
            var y = Int(engine.minY(at: index).rounded())
            while index < engine.items.count, rows.count < height {
                let item = engine.items[index]
                let lines = styledLines(item.id)
                for (line, style) in lines where rows.count < height {
                    if y >= offset { rows.append(FrameLine.filled(line, width: width, style: style)) }
                    y += 1
                }
                index += 1
            }
        }
        while rows.count < height { rows.append(FrameLine.filled("", width: width)) }
        return rows
    }

    func styledLines(_ id: MessageID) -> [(String, FrameStyle)] {
        guard let row = cache.row(id) else { return [("", .normal)] }
        var lines: [(String, FrameStyle)] = []
        if row.separator {
            lines.append((cache.format.separator(day: row.message.blockTime, width: width), .separator))
        }
        let style: FrameStyle =
            switch (row.message.direction, row.message.status) {
            case (.outgoing, .failed): .error
            case (.outgoing, .pending): .dim
            case (.outgoing, _): .outgoing
            case (.incoming, _): .incoming
            }
        for line in row.lines { lines.append((line, style)) }
        return lines
    }
}
