import Dispatch
import Foundation
import TandemBasics

extension PasswordHasher {
    /// scrypt takes ~90 ms of CPU and 32 MiB: it runs on Dispatch queues, never on Swift's
    /// cooperative pool, so concurrent sign-ins cannot stall get-session and the event loops.
    /// One serial queue per core, fed round-robin, so at most one hash per core runs at once
    /// (each needs 32 MiB) and a burst of sign-ins queues instead of exhausting memory, without
    /// parking a thread per waiting hash (a semaphore did, and a burst of them starved the
    /// threads that Swift concurrency runs on).
    private static let queues: [DispatchQueue] = (0..<max(1, ProcessInfo.processInfo.activeProcessorCount)).map {
        DispatchQueue(label: "tandem.password-hashing.\($0)", qos: .userInitiated)
    }
    private static let nextQueue = Locked(0)

    private static func run(_ work: @escaping @Sendable () -> Void) {
        let ticket = nextQueue.withLock { next in
            defer { next &+= 1 }
            return next
        }
        queues[Int(UInt(bitPattern: ticket) % UInt(queues.count))].async(execute: work)
    }

    func hash(_ password: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Self.run { continuation.resume(with: Result { try self.hash(password) }) }
        }
    }

    func verify(_ password: String, against stored: String) async -> Bool {
        await withCheckedContinuation { continuation in
            Self.run { continuation.resume(returning: self.verify(password, against: stored)) }
        }
    }

    func dummyVerify(_ password: String) async {
        await withCheckedContinuation { continuation in
            Self.run {
                self.dummyVerify(password)
                continuation.resume()
            }
        }
    }
}
