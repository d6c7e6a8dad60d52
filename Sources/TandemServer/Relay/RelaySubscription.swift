import TandemBasics
import TandemServerStore

/// One stream's bounded queue of events (issue 11 item 3). The hub and the heartbeat push;
/// the response writer pulls. When the queue is full the consumer is too slow: the
/// subscription overflows, which ends the connection; the client resumes with
/// `Last-Event-ID` from the store, so nothing is lost and memory stays bounded.
final class RelaySubscription: Sendable {
    enum Item: Sendable {
        case record(KasiaRecord)
        case heartbeat
    }

    let id: UInt64
    let watch: KasiaWatch
    /// The queue; at most `capacity` items wait in it.
    let items: AsyncStream<Item>
    /// Yields once when the queue overflows.
    let overflow: AsyncStream<Void>
    private let itemsContinuation: AsyncStream<Item>.Continuation
    private let overflowContinuation: AsyncStream<Void>.Continuation
    private let overflowed = Locked(false)

    init(id: UInt64, watch: KasiaWatch, capacity: Int) {
        self.id = id
        self.watch = watch
        (items, itemsContinuation) = AsyncStream.makeStream(of: Item.self, bufferingPolicy: .bufferingOldest(capacity))
        (overflow, overflowContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `item`; false when the subscription is closed or has just overflowed.
    @discardableResult
    func deliver(_ item: Item) -> Bool {
        switch itemsContinuation.yield(item) {
        case .enqueued: return true
        case .terminated: return false
        case .dropped:
            overflowed.withLock { $0 = true }
            overflowContinuation.yield()
            overflowContinuation.finish()
            itemsContinuation.finish()
            return false
        @unknown default: return false
        }
    }

    /// Whether the consumer fell behind by more than the queue holds.
    var hasOverflowed: Bool { overflowed.withLock { $0 } }

    /// Ends the queue after what it holds (shutdown, or the client left).
    func close() {
        itemsContinuation.finish()
        overflowContinuation.finish()
    }
}
