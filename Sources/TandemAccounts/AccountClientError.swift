public import TandemAPI
public import TandemProfile

/// Why an account call failed, as the client can act on it.
public enum AccountClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with an error body; `code` is its `APIErrorCode` when known.
    case server(status: Int, code: APIErrorCode?, message: String)
    /// A guarded call answered 401: the stored session is gone and the client is signed out.
    case signedOut(SignedOutReason)
    /// The server could not be reached.
    case unreachable(server: String, reason: String)
    /// A 2xx answer that is not the expected JSON.
    case invalidResponse(path: String, reason: String)
    /// The profile's cookie file could not be read or written.
    case profile(ProfileError)

    public var description: String {
        switch self {
        case .server(let status, let code, let message):
            "server answered \(status)\(code.map { " \($0.rawValue)" } ?? ""): \(message)"
        case .signedOut(let reason): reason.message
        case .unreachable(let server, let reason):
            "cannot reach the server at \(server): \(reason) (is `tandem serve` running there? --server URL names another)"
        case .invalidResponse(let path, let reason): "unexpected answer from \(path): \(reason)"
        case .profile(let error): error.description
        }
    }
}
