public import Hummingbird
import NIOCore

/// Per-request state: the peer address (rate-limit key) and, behind requireAuth, the session.
public struct TandemRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address, when the transport knows it.
    public let peerAddress: String?
    /// Set by `RequireAuthMiddleware` for guarded routes.
    public var authenticated: ResolvedSession?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        authenticated = nil
    }

    /// Bodies above this are refused with 413 before decoding (issue 4, security).
    public var maxUploadSize: Int { ServerLimits.maxBodyBytes }
}

/// Caps on untrusted input.
public enum ServerLimits {
    /// Largest request body accepted: 64 KiB, far above any auth or profile request.
    public static let maxBodyBytes = 64 * 1024
    /// Deepest JSON nesting accepted; auth bodies are flat objects.
    public static let maxJSONDepth = 16
}
