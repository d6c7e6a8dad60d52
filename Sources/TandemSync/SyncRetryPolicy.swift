import TandemAccounts

/// How a sync engine backs off when the server is unreachable or overloaded (issue 12 item 4):
/// exponential delays from `initialDelay`, doubling up to `maxDelay`, for at most `attempts`
/// tries of one request. Errors that retrying cannot fix (401, 4xx) are thrown at once.
///
/// A 429 or 5xx with `Retry-After` (the server's 429 `SYNC_BUSY` when its sync-write queue is
/// full, RFC 9110 §10.2.3) waits what the server asked instead of the backoff step, never more
/// than `maxDelay`: a server cannot park a client longer than the policy allows. Without the
/// header, or with one that is not delay-seconds, the backoff applies.
public struct SyncRetryPolicy: Sendable {
    public var attempts: Int
    public var initialDelay: Duration
    public var maxDelay: Duration
    /// How the policy waits between attempts (tests record the delays instead of sleeping).
    var sleep: @Sendable (Duration) async -> Void = { try? await Task.sleep(for: $0) }

    public init(attempts: Int = 4, initialDelay: Duration = .milliseconds(200), maxDelay: Duration = .seconds(5)) {
        self.attempts = max(1, attempts)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
    }

    /// No retries: for tests that want the first failure.
    public static let none = SyncRetryPolicy(attempts: 1)

    /// Runs `request`, retrying transient failures (unreachable, 429, 5xx) with backoff, or
    /// after the server's `Retry-After` when it sent one.
    func run<T>(_ request: () async throws(AccountClientError) -> T) async throws(AccountClientError) -> T {
        var backoff = initialDelay
        var attempt = 1
        while true {
            let hint = RetryAfterHint()
            let outcome = await RetryAfterHint.$current.withValue(hint) { () async -> Result<T, AccountClientError> in
                do throws(AccountClientError) { return .success(try await request()) } catch { return .failure(error) }
            }
            switch outcome {
            case .success(let value): return value
            case .failure(let error):
                // A cancelled sync stops at once: its request failed because it was cancelled.
                guard attempt < attempts, Self.isTransient(error), !Task.isCancelled else { throw error }
            }
            await sleep(delay(backoff: backoff, retryAfter: hint.delay))
            backoff = min(backoff * 2, maxDelay)
            attempt += 1
        }
    }

    /// The wait before the next attempt: the server's `Retry-After` when given, else the
    /// backoff step; at most `maxDelay` either way.
    func delay(backoff: Duration, retryAfter: Duration?) -> Duration {
        min(retryAfter ?? backoff, maxDelay)
    }

    static func isTransient(_ error: AccountClientError) -> Bool {
        switch error {
        case .unreachable: true
        case .server(let status, _, _): status == 429 || status >= 500
        default: false
        }
    }
}
