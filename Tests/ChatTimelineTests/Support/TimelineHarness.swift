import ChatTimeline
import Foundation
import Testing

/// Drives a `TimelineEngine` against an in-memory keyset store, answering page requests on
/// demand and checking the engine's invariants after every event.
struct TimelineHarness {
    var engine: TimelineEngine
    /// The conversation as stored, ascending by key.
    var store: [TimelineItem]
    /// Rows the store holds but cannot decode.
    var undecodable: Set<MessageID> = []
    var pending: PageRequest?
    var requests: [PageRequest] = []
    var offsetMoves: [OffsetReason] = []
    var lastEffects: [TimelineEffect] = []

    static let viewportHeight = 600.0

    init(count: Int, pageSize: Int = 20, windowCap: Int = 1_500, start: UInt64 = 1_000) {
        store = (0..<count).map { Self.item(blockTime: start + UInt64($0) * 1_000, tx: "tx\($0)") }
        store.sort { $0.key < $1.key }
        let configuration = TimelineConfiguration(pageSize: pageSize, windowCap: windowCap)
        engine = TimelineEngine(configuration: configuration) { item in Self.height(of: item) }
    }

    /// 30–90 pt, derived from the key so that every run is identical.
    static func height(of item: TimelineItem) -> Double {
        30 + Double(item.key.blockTime / 1_000 % 7) * 10
    }

    static func item(blockTime: UInt64, timestamp: Int64? = nil, tx: String?, status: DeliveryStatus = .confirmed)
        -> TimelineItem
    {
        TimelineItem(
            key: MessageKey(blockTime: blockTime, timestamp: timestamp ?? Int64(blockTime), id: MessageID(UUID())),
            txID: tx.map(TxID.init), kind: .text, status: status)
    }

    @discardableResult
    mutating func send(_ event: TimelineEvent, sourceLocation: SourceLocation = #_sourceLocation) -> [TimelineEffect] {
        let effects = engine.apply(event)
        lastEffects = effects
        var moves = 0
        for effect in effects {
            switch effect {
            case .requestPage(let request):
                #expect(pending == nil, "request while another is outstanding", sourceLocation: sourceLocation)
                pending = request
                requests.append(request)
            case .cancelRequest(let token):
                if pending?.token == token { pending = nil }
            case .setContentOffset(_, let reason):
                offsetMoves.append(reason)
                moves += 1
            default:
                break
            }
        }
        #expect(moves <= 1, "more than one offset change in one event", sourceLocation: sourceLocation)
        #expect(engine.invariantViolations().isEmpty, "\(engine.invariantViolations())", sourceLocation: sourceLocation)
        return effects
    }

    /// The store's answer to a request, with the raw-row boundary and `LIMIT n+1` hasMore.
    func page(for request: PageRequest) -> TimelinePage {
        let raw: ArraySlice<TimelineItem>
        let hasMore: Bool
        switch request.direction {
        case .newest:
            raw = store.suffix(request.limit)
            hasMore = store.count > request.limit
        case .older(let cursor):
            let end = store.firstIndex { !($0.key < cursor) } ?? store.count
            raw = store[max(0, end - request.limit)..<end]
            hasMore = end > request.limit
        case .newer(let cursor):
            let start = store.firstIndex { $0.key > cursor } ?? store.count
            raw = store[start..<min(store.count, start + request.limit)]
            hasMore = store.count - start > request.limit
        }
        let boundary: MessageKey?
        if case .newer = request.direction { boundary = raw.last?.key } else { boundary = raw.first?.key }
        return TimelinePage(items: raw.filter { !undecodable.contains($0.id) }, hasMore: hasMore, boundary: boundary)
    }

    /// Answers the outstanding request, if any.
    @discardableResult
    mutating func answer() -> [TimelineEffect] {
        guard let request = pending else { return [] }
        pending = nil
        return send(.pageLoaded(token: request.token, page: page(for: request)))
    }

    /// Answers requests until none is outstanding.
    mutating func settle() {
        var guardCount = 0
        while pending != nil && guardCount < 200 {
            answer()
            guardCount += 1
        }
    }

    /// Opens the conversation at the bottom (or a marker) with the backlog warmed up.
    mutating func open(_ placement: TimelinePlacement = .bottom) {
        send(.viewportChanged(TimelineViewport(height: Self.viewportHeight)))
        send(.reset(placement))
        settle()
    }

    /// Scrolls as the user would, to an absolute offset.
    mutating func scroll(to offset: Double) {
        send(.userScrolled(offset: max(engine.minOffset, min(engine.maxOffset, offset))))
    }

    /// Viewport Y of a rendered row.
    func y(_ id: MessageID) -> Double? { engine.minY(of: id).map { $0 - engine.contentOffset } }

    /// The first row intersecting the viewport top.
    var topVisible: TimelineItem? {
        engine.items.first { item in
            guard let minY = engine.minY(of: item.id), let height = engine.height(of: item.id) else { return false }
            return minY + height > engine.contentOffset
        }
    }

    /// Whether any absolute move (not an anchor correction) was made since `index`.
    func absoluteMoves(since index: Int) -> [OffsetReason] {
        offsetMoves[index...].filter { if case .anchorCorrection = $0 { false } else { true } }
    }
}

extension TimelineHarness: CustomStringConvertible {
    var description: String { "TimelineHarness(store: \(store.count), \(engine))" }
}
