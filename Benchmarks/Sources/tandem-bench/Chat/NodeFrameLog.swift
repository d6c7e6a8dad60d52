import BenchSupport
import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import TandemBasics

/// Every frame the in-process simulated node read or wrote during a chat-node run, as its
/// ``NodeFrameObserver`` handed them over (stamped on this process's `ContinuousClock`).
/// Recording appends under a lock and returns: it runs on the node's connection tasks.
final class NodeFrameLog: Sendable {
    private let events = Locked<[NodeFrameEvent]>([])

    var observer: NodeFrameObserver {
        NodeFrameObserver { [self] event in events.withLock { $0.append(event) } }
    }

    /// Everything recorded so far, in the order it was recorded.
    var snapshot: [NodeFrameEvent] { events.withLock { $0 } }
}

/// One request a connection answered: when it was read and when its answer was ready.
struct NodeCall {
    var method: String
    var read: ContinuousClock.Instant
    var answered: ContinuousClock.Instant
    /// The answer's frame text.
    var answer: String
}

extension [NodeFrameEvent] {
    /// The UtxosChanged notifications read from `start` to `end` that carry a change of `address`.
    func utxosChanged(
        of address: KaspaAddress, from start: ContinuousClock.Instant, to end: ContinuousClock.Instant
    ) -> [NodeFrameEvent] {
        filter { event in
            guard event.instant >= start, event.instant <= end, case .notification(.utxosChanged(let body)) = event.kind
            else { return false }
            return (body.added + body.removed).contains { $0.address == address }
        }
    }

    /// The requests `connection` answered, in order. A connection reads, answers and records one
    /// request at a time, so each request's record is followed by its answer's.
    func calls(on connection: UInt64) -> [NodeCall] {
        var calls: [NodeCall] = []
        var pending: (method: String, read: ContinuousClock.Instant)?
        for event in self where event.connection == connection {
            switch event.kind {
            case .request(let method): pending = (method, event.instant)
            case .answer(let method):
                guard let request = pending, request.method == method else { continue }
                calls.append(NodeCall(method: method, read: request.read, answered: event.instant, answer: event.frame))
                pending = nil
            case .notification: continue
            }
        }
        return calls
    }
}
