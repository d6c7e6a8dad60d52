import Foundation

/// Waits for a child process without parking a thread. `Process.waitUntilExit` blocks its
/// caller, and in an async test that caller is one of the cooperative pool's two threads (issue
/// 16, "Tests"). The termination handler resumes checked continuations instead, and a deadline
/// SIGKILLs a child that overstays and gives up on it.
///
/// `@unchecked Sendable`: `status`, `waiters` and `abandoned` are only read or written while
/// holding `lock`.
final class ProcessExit: @unchecked Sendable {
    private let lock = NSLock()
    private var status: Int32?
    private var waiters: [UUID: CheckedContinuation<Int32?, Never>] = [:]
    private var abandoned: Set<UUID> = []

    /// Installs the termination handler; call it before `process.run()`.
    init(watching process: Process) {
        process.terminationHandler = { [self] finished in finish(finished.terminationStatus) }
    }

    var hasExited: Bool { lock.withLock { status != nil } }

    /// The exit status within `seconds`. Past that the child (`pid`) is SIGKILLed and
    /// ``ProcessExitError/timedOut(_:)`` thrown once it is reaped, or after two more seconds if
    /// its exit is never reported (a grandchild may hold Foundation's exit socket open).
    func status(within seconds: Double, killing pid: pid_t) async throws -> Int32 {
        let token = UUID()
        let watchdog = Task { [self] in
            try await Task.sleep(for: .seconds(seconds))
            guard !hasExited else { return false }
            _ = kill(pid, SIGKILL)
            try? await Task.sleep(for: .seconds(2))
            abandon(token)
            return true
        }
        let status = await wait(token)
        watchdog.cancel()
        let killed = (try? await watchdog.value) ?? false
        guard let status, !killed else { throw ProcessExitError.timedOut(seconds) }
        return status
    }

    /// The exit status, however long it takes: for a child already sent SIGKILL or SIGTERM.
    func status() async -> Int32 { await wait(UUID()) ?? -1 }

    private func wait(_ token: UUID) async -> Int32? {
        await withCheckedContinuation { continuation in
            let known: Int32?? = lock.withLock {
                if let status { return .some(status) }
                if abandoned.contains(token) { return .some(nil) }
                waiters[token] = continuation
                return .none
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    private func abandon(_ token: UUID) {
        let waiter = lock.withLock {
            abandoned.insert(token)
            return waiters.removeValue(forKey: token)
        }
        waiter?.resume(returning: nil)
    }

    private func finish(_ code: Int32) {
        let resumed: [CheckedContinuation<Int32?, Never>] = lock.withLock {
            status = code
            defer { waiters = [:] }
            return Array(waiters.values)
        }
        for waiter in resumed { waiter.resume(returning: code) }
    }
}

enum ProcessExitError: Error, CustomStringConvertible {
    case timedOut(Double)

    var description: String {
        switch self {
        case .timedOut(let seconds): "the child process ran longer than \(Int(seconds)) s and was killed"
        }
    }
}
