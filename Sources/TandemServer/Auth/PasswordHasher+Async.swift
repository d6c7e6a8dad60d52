import Dispatch

extension PasswordHasher {
    /// scrypt takes ~90 ms of CPU and 32 MiB: it runs on a Dispatch queue, never on Swift's
    /// cooperative pool, so concurrent sign-ins cannot stall get-session and the event loops.
    private static let queue = DispatchQueue(label: "tandem.password-hashing", qos: .userInitiated, attributes: .concurrent)

    func hash(_ password: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Self.queue.async { continuation.resume(with: Result { try self.hash(password) }) }
        }
    }

    func verify(_ password: String, against stored: String) async -> Bool {
        await withCheckedContinuation { continuation in
            Self.queue.async { continuation.resume(returning: self.verify(password, against: stored)) }
        }
    }

    func dummyVerify(_ password: String) async {
        await withCheckedContinuation { continuation in
            Self.queue.async {
                self.dummyVerify(password)
                continuation.resume()
            }
        }
    }
}
