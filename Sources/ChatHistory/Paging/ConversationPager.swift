public import ChatTimeline

/// Joins the timeline engine and the history store for one conversation
/// (timeline-and-contacts.md §2.6; issue 6 step 3).
///
/// The engine decides *when* to page and keeps one request in flight; the pager holds that
/// request, runs it as a keyset query when asked (`runPendingRequest`), decodes rows, and feeds
/// the reply back. Live messages go through the store first, so the first UUID seen for a txId
/// is the one the list shows. A value type: wrap it in an actor or run it on one queue.
public struct ConversationPager: Sendable {
    public let conversation: ConversationID
    let store: ChatHistoryStore
    /// Turns a stored row into a timeline row; `nil` when the body cannot be decrypted. Paging
    /// still advances past such rows, because the cursor comes from the raw rows.
    let decode: @Sendable (StoredMessage) -> TimelineItem?
    public private(set) var engine: TimelineEngine
    /// The single page query waiting to run, if any.
    public private(set) var pendingRequest: PageRequest?
    /// Store queries run so far (a test and diagnostics figure).
    public private(set) var queriesRun = 0

    public init(
        store: ChatHistoryStore, conversation: ConversationID, engine: TimelineEngine,
        decode: @escaping @Sendable (StoredMessage) -> TimelineItem? = ConversationPager.plainItem
    ) {
        self.store = store
        self.conversation = conversation
        self.engine = engine
        self.decode = decode
    }

    /// The default decoder: every row is displayable.
    public static let plainItem: @Sendable (StoredMessage) -> TimelineItem? = { message in
        TimelineItem(key: message.key, txID: message.txID, kind: message.kind, status: message.status)
    }

    /// Feeds a UI event. Returns the effects the UI applies; page requests and cancellations are
    /// kept here instead.
    public mutating func send(_ event: TimelineEvent) -> [TimelineEffect] {
        absorb(engine.apply(event))
    }

    /// Runs the pending page query against the store and feeds its reply to the engine; a store
    /// error becomes `pageFailed`, which the engine answers with `pagingFailed(attempt:)`.
    public mutating func runPendingRequest() -> [TimelineEffect] {
        guard let request = pendingRequest else { return [] }
        pendingRequest = nil
        queriesRun += 1
        do {
            let page = try fetch(request)
            let timelinePage = TimelinePage(
                items: page.rows.compactMap(decode), hasMore: page.hasMore, boundary: page.boundary)
            return send(.pageLoaded(token: request.token, page: timelinePage))
        } catch {
            return send(.pageFailed(token: request.token))
        }
    }

    /// Runs pending queries until the engine wants no more (its backlog is warm), at most
    /// `limit` queries. Convenient for tests and for a synchronous shell.
    public mutating func settle(limit: Int = 16) -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        var runs = 0
        while pendingRequest != nil && runs < limit {
            effects += runPendingRequest()
            runs += 1
        }
        return effects
    }

    /// Stores a live message (the store folds duplicates) and shows the surviving row.
    public mutating func receive(_ message: StoredMessage) throws -> [TimelineEffect] {
        let outcome = try store.save(message)
        return try show(outcome)
    }

    /// Pending → sent in place: the same UUID gets its txId and chain time.
    public mutating func promote(_ id: MessageID, txID: TxID, blockTime: UInt64) throws -> [TimelineEffect] {
        guard let outcome = try store.promote(id, txID: txID, blockTime: blockTime) else { return [] }
        return try show(outcome)
    }

    public mutating func delete(_ ids: [MessageID]) throws -> [TimelineEffect] {
        try store.delete(ids)
        return send(.delete(ids))
    }

    mutating func show(_ outcome: SaveOutcome) throws -> [TimelineEffect] {
        var effects: [TimelineEffect] = []
        if case .merged(let removed, _) = outcome { effects += send(.delete([removed])) }
        guard let stored = try store.message(outcome.id), stored.conversation == conversation,
            let item = decode(stored)
        else { return effects }
        switch outcome {
        case .inserted: effects += send(.tailArrived([item]))
        case .updated, .merged: effects += send(.upsert(item))
        case .unchanged, .discarded: break
        }
        return effects
    }

    func fetch(_ request: PageRequest) throws -> MessagePage {
        switch request.direction {
        case .newest: try store.newestPage(in: conversation, limit: request.limit)
        case .older(let cursor): try store.page(in: conversation, olderThan: cursor, limit: request.limit)
        case .newer(let cursor): try store.page(in: conversation, newerThan: cursor, limit: request.limit)
        }
    }

    mutating func absorb(_ effects: [TimelineEffect]) -> [TimelineEffect] {
        effects.filter { effect in
            switch effect {
            case .requestPage(let request):
                pendingRequest = request
                return false
            case .cancelRequest(let token):
                if pendingRequest?.token == token { pendingRequest = nil }
                return false
            default:
                return true
            }
        }
    }
}
