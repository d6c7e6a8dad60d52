import Foundation
import Synchronization

/// A child process's exit, awaited without blocking a thread: the process's `terminationHandler`
/// records the status and resumes every waiter. Async tests have two cooperative threads, so
/// `Process.waitUntilExit` there stalls everything else (house rule, common ground rules).
final class ProcessExit: Sendable {
    private struct State {
        var status: Int32?
        var waiters: [CheckedContinuation<Int32, Never>] = []
    }

    private let state = Mutex(State())

    /// Installs the handler; call before `process.run()` so no exit is missed.
    init(watching process: Process) {
        process.terminationHandler = { [self] finished in finish(finished.terminationStatus) }
    }

    private func finish(_ status: Int32) {
        let waiters = state.withLock { state in
            state.status = status
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    /// The exit status, once the process has exited.
    func status() async -> Int32 {
        await withCheckedContinuation { continuation in
            let known = state.withLock { state -> Int32? in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }
}
