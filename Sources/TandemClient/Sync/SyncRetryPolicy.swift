/// How a sync engine backs off when the server is unreachable or overloaded (issue 12 item 4):
/// exponential delays from `initialDelay`, doubling up to `maxDelay`, for at most `attempts`
/// tries of one request. Errors that retrying cannot fix (401, 4xx) are thrown at once.
public struct SyncRetryPolicy: Sendable {
    public var attempts: Int
    public var initialDelay: Duration
    public var maxDelay: Duration

    public init(attempts: Int = 4, initialDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(5)) {
        self.attempts = max(1, attempts)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// No retries: for tests that want the first failure.
    public static let none = SyncRetryPolicy(attempts: 1)

    /// Runs `request`, retrying transient failures (unreachable, 429, 5xx) with backoff.
    func run<T>(_ request: () async throws(AccountClientError) -> T) async throws(AccountClientError) -> T {
        var delay = initialDelay
        var attempt = 1
        while true {
            do { return try await request() } catch {
                guard attempt < attempts, Self.isTransient(error) else { throw error }
            }
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, maxDelay)
            attempt += 1
        }
    }

    static func isTransient(_ error: AccountClientError) -> Bool {
        switch error {
        case .unreachable: true
        case .server(let status, _, _): status == 429 || status >= 500
        default: false
        }
    }
}
