import Foundation

/// Tells a reader thread to stop, and tells the caller when it has.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    private var done = false

    func set() { lock.withLock { stopped = true } }
    var isSet: Bool { lock.withLock { stopped } }
    func finishReading() { lock.withLock { done = true } }
    var readerDone: Bool { lock.withLock { done } }
}
