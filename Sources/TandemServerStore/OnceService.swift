import ServiceLifecycle
import TandemBasics

/// A service that runs its wrapped service once: a later `run` — the same store's services run
/// by a test's task group and by an application's service group — waits for graceful shutdown
/// or cancellation instead of starting it again (a pool must not run twice) or returning at
/// once (a service group takes a service that returns for a failure and shuts down).
final class OnceService: Service {
    private let wrapped: any Service
    private let started = Locked(false)

    init(_ wrapped: any Service) {
        self.wrapped = wrapped
    }

    func run() async throws {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else {
            try? await gracefulShutdown()
            return
        }
        try await wrapped.run()
    }
}
