import TandemBasics

/// Receives a subscriber's share of committed changes.
protocol ContactChangeSink: AnyObject, Sendable {
    func receive(_ changes: [ContactChange])
}

/// Fans committed changes out to the live feeds of one store; sinks are called outside the lock.
public final class ContactsChangeHub: Sendable {
    /// Weak, so a feed that is dropped unsubscribes itself.
    private struct WeakSink {
        weak var sink: (any ContactChangeSink)?
    }

    private let sinks = Locked<[ObjectIdentifier: WeakSink]>([:])

    init() {}

    func publish(_ changes: [ContactChange]) {
        guard !changes.isEmpty else { return }
        let current = sinks.withLock { $0.values.compactMap(\.sink) }
        for sink in current { sink.receive(changes) }
    }

    func add(_ sink: any ContactChangeSink) {
        sinks.withLock { $0[ObjectIdentifier(sink)] = WeakSink(sink: sink) }
    }

    func remove(_ sink: any ContactChangeSink) {
        sinks.withLock { $0[ObjectIdentifier(sink)] = nil }
    }
}
