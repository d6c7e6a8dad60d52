import Foundation

/// Receives a subscriber's share of committed changes.
protocol ContactChangeSink: AnyObject, Sendable {
    func receive(_ changes: [ContactChange])
}

/// Fans committed changes out to the live feeds of one store.
///
/// `@unchecked Sendable`: the only mutable state, `sinks`, is read and written under `lock`, and
/// sinks are called outside it.
public final class ContactsChangeHub: @unchecked Sendable {
    private let lock = NSLock()
    /// Weak, so a feed that is dropped unsubscribes itself.
    private struct WeakSink {
        weak var sink: (any ContactChangeSink)?
    }

    private var sinks: [ObjectIdentifier: WeakSink] = [:]

    init() {}

    func publish(_ changes: [ContactChange]) {
        guard !changes.isEmpty else { return }
        lock.lock()
        let current = sinks.values.compactMap(\.sink)
        lock.unlock()
        for sink in current { sink.receive(changes) }
    }

    func add(_ sink: any ContactChangeSink) {
        lock.lock()
        sinks[ObjectIdentifier(sink)] = WeakSink(sink: sink)
        lock.unlock()
    }

    func remove(_ sink: any ContactChangeSink) {
        lock.lock()
        sinks[ObjectIdentifier(sink)] = nil
        lock.unlock()
    }
}
