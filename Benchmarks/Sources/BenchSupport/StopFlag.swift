import Synchronization

/// Tells a reader thread to stop, and tells the caller when it has.
package final class StopFlag: Sendable {
    package init() {}

    private let stopped = Atomic<Bool>(false)
    private let done = Atomic<Bool>(false)

    package func set() { stopped.store(true, ordering: .releasing) }
    package var isSet: Bool { stopped.load(ordering: .acquiring) }
    package func finishReading() { done.store(true, ordering: .releasing) }
    package var readerDone: Bool { done.load(ordering: .acquiring) }
}
