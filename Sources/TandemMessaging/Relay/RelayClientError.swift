public import TandemAPI

/// Why a relay call failed, as a caller can act on it.
public enum RelayClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The relay refused with a `{code, message}` body (issue 11 item 1); nothing was stored.
    case refused(status: Int, code: APIErrorCode?, message: String)
    /// 429: too many submissions; try again after `retryAfterSeconds` (the `Retry-After` header).
    case rateLimited(retryAfterSeconds: UInt64?, message: String)
    /// An indexer read answered 4xx/5xx with kasia-indexer's `{"error": …}` (kasia-protocol §10).
    case indexer(status: Int, message: String)
    /// The server could not be reached, or the connection broke.
    case unreachable(server: String, reason: String)
    /// A 2xx answer that is not the expected JSON.
    case invalidResponse(path: String, reason: String)

    public var description: String {
        switch self {
        case .refused(let status, let code, let message):
            "relay refused (\(status)\(code.map { " \($0.rawValue)" } ?? "")): \(message)"
        case .rateLimited(let seconds, let message):
            "relay rate limit: \(message)" + (seconds.map { " (retry after \($0) s)" } ?? "")
        case .indexer(let status, let message): "indexer answered \(status): \(message)"
        case .unreachable(let server, let reason):
            "cannot reach the server at \(server): \(reason) (is `tandem serve` running there? --server URL names another)"
        case .invalidResponse(let path, let reason): "unexpected answer from \(path): \(reason)"
        }
    }

    /// Whether the same request may succeed later unchanged (rate limit, outage, server fault).
    public var isRetryable: Bool {
        switch self {
        case .rateLimited, .unreachable: true
        case .refused(let status, _, _), .indexer(let status, _): status >= 500
        case .invalidResponse: false
        }
    }
}
