#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// State that several threads share, behind a lock: the package's one lock type (issue 46 item 1).
///
/// `Synchronization.Mutex` needs iOS 18 and macOS 15, and the apps that link these libraries
/// deploy to iOS 16 and macOS 13. This is the same shape (`withLock` hands the state to a closure
/// that runs while no other thread holds the lock) over what each platform has at that floor: an
/// `os_unfair_lock` on Apple platforms and a `pthread_mutex_t` elsewhere, each at a fixed heap
/// address as both require. The lock is not recursive: a closure must not call `withLock` on the
/// same instance again, and should not suspend or block for long, because other threads spin or
/// park on it.
///
/// ```swift
/// let seen = Locked<Set<String>>([])
/// let isNew = seen.withLock { $0.insert(id).inserted }
/// ```
public final class Locked<State>: @unchecked Sendable {
    #if canImport(Darwin)
        private let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
        private let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif
    /// Read and written only between `lock()` and `unlock()`.
    private var state: State

    public init(_ initial: sending State) {
        state = initial
        #if canImport(Darwin)
            primitive = .allocate(capacity: 1)
            primitive.initialize(to: os_unfair_lock())
        #else
            primitive = .allocate(capacity: 1)
            primitive.initialize(to: pthread_mutex_t())
            // Default attributes: a normal (non-recursive, non-robust) mutex. It fails only when
            // the system is out of memory or the attributes are invalid; neither can be handled here.
            let status = pthread_mutex_init(primitive, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
            pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    /// Runs `body` with the state while holding the lock, and returns what it returns.
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        lock()
        defer { unlock() }
        return try body(&state)
    }

    private func lock() {
        #if canImport(Darwin)
            os_unfair_lock_lock(primitive)
        #else
            let status = pthread_mutex_lock(primitive)
            precondition(status == 0, "pthread_mutex_lock failed: \(status)")
        #endif
    }

    private func unlock() {
        #if canImport(Darwin)
            os_unfair_lock_unlock(primitive)
        #else
            let status = pthread_mutex_unlock(primitive)
            precondition(status == 0, "pthread_mutex_unlock failed: \(status)")
        #endif
    }
}
