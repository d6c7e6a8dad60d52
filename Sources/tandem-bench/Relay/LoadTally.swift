import Foundation

/// What the load threads report back.
final class LoadTally: @unchecked Sendable {
    private let lock = NSLock()
    private var failureCount = 0
    private var firstError: String?

    func add(failures: Int) { lock.withLock { failureCount += failures } }
    func fail(_ message: String) { lock.withLock { if firstError == nil { firstError = message } } }
    var failures: Int { lock.withLock { failureCount } }
    var error: String? { lock.withLock { firstError } }
}
