import Dispatch
import Foundation

extension PasswordHasher {
    /// scrypt takes ~90 ms of CPU and 32 MiB: it runs on a Dispatch queue, never on Swift's
    /// cooperative pool, so concurrent sign-ins cannot stall get-session and the event loops.
    /// At most one hash per core runs at once (each needs 32 MiB), so a burst of sign-ins
    /// queues instead of exhausting memory.
    private static let queue = DispatchQueue(
        label: "tandem.password-hashing", qos: .userInitiated, attributes: .concurrent)
    private static let slots = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount))

    private static func run(_ work: @escaping @Sendable () -> Void) {
        queue.async {
            slots.wait()
            defer { slots.signal() }
            work()
        }
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
