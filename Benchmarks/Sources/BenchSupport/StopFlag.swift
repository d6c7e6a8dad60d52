import TandemBasics

/// Tells a reader thread to stop, and tells the caller when it has.
package final class StopFlag: Sendable {
    package init() {}

    private let stopped = Locked(false)
    private let done = Locked(false)

    package func set() { stopped.withLock { $0 = true } }
    package var isSet: Bool { stopped.withLock { $0 } }
    package func finishReading() { done.withLock { $0 = true } }
    package var readerDone: Bool { done.withLock { $0 } }
}
