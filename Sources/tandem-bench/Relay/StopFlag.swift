import Synchronization

/// Tells a reader thread to stop, and tells the caller when it has.
final class StopFlag: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let done = Atomic<Bool>(false)

    func set() { stopped.store(true, ordering: .releasing) }
    var isSet: Bool { stopped.load(ordering: .acquiring) }
    func finishReading() { done.store(true, ordering: .releasing) }
    var readerDone: Bool { done.load(ordering: .acquiring) }
}
