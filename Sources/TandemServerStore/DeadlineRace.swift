import TandemBasics

/// The one-shot meeting point of `StoreDeadline`'s operation and timer: the first result
/// resumes the continuation, later ones are dropped, and `onFinish` cancels both tasks.
final class DeadlineRace<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var finished = false
        var cleanup: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early: Result<T, any Error>? = state.withLock { state in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// Registers what to run once the race is decided (at once if it already is).
    func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.finished { return true }
            state.cleanup = cleanup
            return false
        }
        if runNow { cleanup() }
    }

    func finish(_ result: Result<T, any Error>) {
        let (continuation, cleanup) = state.withLock {
            state -> (CheckedContinuation<T, any Error>?, (@Sendable () -> Void)?) in
            guard !state.finished else { return (nil, nil) }
            state.finished = true
            let continuation = state.continuation
            state.continuation = nil
            if continuation == nil { state.early = result }
            let cleanup = state.cleanup
            state.cleanup = nil
            return (continuation, cleanup)
        }
        continuation?.resume(with: result)
        cleanup?()
    }
}
