import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An advisory lock on a file of a profile (`flock`), held while one process of the profile does
/// something no other may do at the same time: a wallet send reads the pending transactions,
/// spends, and writes them back (issue 24 item 2, "sends serialized per profile"). The kernel
/// releases it if the process dies.
package enum ProfileFileLock {
    /// Runs `body` holding the lock on `path` (created if missing), waiting for it first.
    package static func withLock<T>(
        path: String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async throws -> T {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ProfileError.fileSystem(path: path, reason: "cannot open the lock file") }
        defer { close(descriptor) }
        var result: Int32
        repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
        guard result == 0 else { throw ProfileError.fileSystem(path: path, reason: "cannot lock the file") }
        defer { _ = flock(descriptor, LOCK_UN) }
        return try await body()
    }
}
