public import Hummingbird
import NIOCore

/// Per-request state: the peer address (rate-limit key) and, behind requireAuth, the session.
public struct TandemRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address, when the transport knows it.
    public let peerAddress: String?
    /// The client the rate limits count: the peer, or the `X-Forwarded-For` client when the
    /// peer is a trusted proxy (`FrontDoorMiddleware`).
    public var clientAddress: String?
    /// Set by `RequireAuthMiddleware` for guarded routes.
    public var authenticated: ResolvedSession?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        clientAddress = peerAddress
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
    /// Caps on every stored text field (issue 14 audit: sign-up fields were bounded only by
    /// the body limit, a 60 KB `User-Agent` landed in the session row). Names match the
    /// profile's `displayName` cap, so sign-up cannot store what the profile would refuse.
    public static let maxNameLength = 64
    /// `displayUsername`, shown like a name.
    public static let maxDisplayUsernameLength = 64
    /// `image` is a URL; 2048 is the length browsers and CDNs reliably handle.
    public static let maxImageLength = 2048
    /// `User-Agent` is not refused when longer, it is cut to this many UTF-8 bytes.
    public static let maxUserAgentBytes = 512

    /// Whether `text` fits `limit` characters, the way the profile has always counted its
    /// `displayName`; its UTF-16 length is capped at four times that too, since one character
    /// (a grapheme cluster) may hold any number of combining marks.
    static func fits(_ text: String, _ limit: Int) -> Bool {
        text.utf16.count <= 4 * limit && text.count <= limit
    }

    /// `text` cut to at most `limit` UTF-8 bytes, on a character boundary.
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var out = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            guard used + size <= limit else { break }
            out.append(character)
            used += size
        }
        return out
    }
}
