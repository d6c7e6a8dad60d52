import Crypto
import Foundation
import TandemBasics

/// Who may use the chat app's local server (issue 47 item 1), decided before routing on every
/// request. The server listens on the loopback interface only, yet any page the browser has
/// open can send requests there, and a DNS name can be rebound to 127.0.0.1, so:
///
/// - the `Host` must name the loopback address and the app's port (`127.0.0.1:PORT` or
///   `localhost:PORT`): a rebound name is refused;
/// - the URL the app prints carries a one-time token; opening it (`GET /open?token=…`) trades the
///   token for a session cookie (HTTP-only, `SameSite=Strict`, named for the port, since cookies
///   are shared between the ports of one host); every other request needs that cookie;
/// - a request that changes something (any method but `GET` and `HEAD`) needs an `Origin` that is
///   the app's own: no other page can post to it, with or without the cookie.
///
/// Nothing is answered with CORS headers.
public final class ChatAppAccess: Sendable {
    /// What to do with a request.
    public enum Decision: Equatable, Sendable {
        /// Route it.
        case allow
        /// The token was right: set this `Set-Cookie` and send the browser to `/`.
        case open(setCookie: String)
        /// Answer 403, saying why.
        case refuse(String)
    }

    /// The path that trades the token for the cookie.
    public static let openPath = "/open"
    private let token: [UInt8]
    private let state = Locked(State())

    private struct State {
        var port: Int?
        var tokenUsed = false
        var sessions: Set<String> = []
    }

    /// Access with a fresh random token; requests are refused until ``listening(on:)``.
    public convenience init() {
        self.init(token: Self.randomHex())
    }

    init(token: String) {
        self.token = Array(token.utf8)
    }

    /// The server is bound to `port`.
    public func listening(on port: Int) {
        state.withLock { $0.port = port }
    }

    /// The port the server is bound to; nil before it is.
    public var port: Int? { state.withLock { $0.port } }

    /// The URL to open, with the one-time token; nil before the server is bound.
    public var openURL: String? {
        port.map { "http://127.0.0.1:\($0)\(Self.openPath)?token=\(String(decoding: token, as: UTF8.self))" }
    }

    /// The name of the session cookie, one per port: browsers share cookies between the ports
    /// of one host, and two profiles' apps may run at once.
    public static func cookieName(port: Int) -> String { "tandem_app_\(port)" }

    /// The origins of the app's own pages.
    static func origins(port: Int) -> [String] { ["http://127.0.0.1:\(port)", "http://localhost:\(port)"] }

    /// Decides a request from its method, path, query token, and `Host`, `Origin` and `Cookie`
    /// headers.
    public func decide(method: String, path: String, token: String?, host: String?, origin: String?, cookie: String?)
        -> Decision
    {
        guard let port else { return .refuse("not listening yet") }
        let origins = Self.origins(port: port)
        guard let host, origins.contains("http://" + host.lowercased()) else {
            return .refuse("this server answers only http://127.0.0.1:\(port)")
        }
        if method != "GET" && method != "HEAD" {
            guard let origin, origins.contains(origin.lowercased()) else {
                return .refuse("a change must come from the app's own page")
            }
        }
        let name = Self.cookieName(port: port)
        if path == Self.openPath {
            guard method == "GET", let token, let session = exchange(token) else {
                return .refuse("this link was used already or is not the one tandem app printed; run tandem app again")
            }
            return .open(setCookie: "\(name)=\(session); Path=/; HttpOnly; SameSite=Strict")
        }
        guard let session = Self.cookieValue(named: name, in: cookie),
            state.withLock({ $0.sessions.contains(session) })
        else { return .refuse("open the link tandem app printed first") }
        return .allow
    }

    /// Trades the token, once, for a new session. The comparison is of SHA-256 digests, whose
    /// equality swift-crypto makes in constant time.
    private func exchange(_ offered: String) -> String? {
        guard SHA256.hash(data: token) == SHA256.hash(data: Array(offered.utf8)) else { return nil }
        return state.withLock { state in
            guard !state.tokenUsed else { return nil }
            state.tokenUsed = true
            let session = Self.randomHex()
            state.sessions.insert(session)
            return session
        }
    }

    /// The value of the cookie `name` in a `Cookie` header.
    static func cookieValue(named name: String, in header: String?) -> String? {
        guard let header else { return nil }
        for pair in header.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == name else { continue }
            return parts[1].trimmingCharacters(in: .whitespaces)
        }
        return nil
    }

    /// 32 random bytes from the system's generator, as hex.
    static func randomHex() -> String {
        SymmetricKey(size: .bits256).withUnsafeBytes { Hex.encode(Array($0)) }
    }
}
