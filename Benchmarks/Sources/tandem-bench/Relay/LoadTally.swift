import BenchSupport
import Synchronization

/// What the load threads report back.
final class LoadTally: Sendable {
    private let state = Mutex<(failures: Int, firstError: String?)>((0, nil))

    func add(failures: Int) { state.withLock { $0.failures += failures } }
    func fail(_ message: String) { state.withLock { if $0.firstError == nil { $0.firstError = message } } }
    var failures: Int { state.withLock { $0.failures } }
    var error: String? { state.withLock { $0.firstError } }
}
