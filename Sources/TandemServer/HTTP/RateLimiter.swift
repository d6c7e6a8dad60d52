import Foundation
import HTTPTypes
import Hummingbird
import TandemBasics

/// Fixed-window request counting per client IP and path (betterauth-api.md §11): 3 per 10 s
/// on `/sign-in*` and `/sign-up*`, 100 per 10 s on other auth POSTs. Over the limit:
/// 429 `{message}` with `X-Retry-After`. Time comes from the injected clock.
actor RateLimiter {
    struct Rule: Sendable {
        let limit: Int
        let window: TimeInterval
    }

    private struct Window {
        var start: Date
        var count: Int
        var length: TimeInterval
    }

    private let clock: any WallClock
    private var windows: [String: Window] = [:]

    init(clock: any WallClock) { self.clock = clock }

    static func rule(forAuthPath path: String) -> Rule {
        let relative = path.hasPrefix("/api/auth") ? String(path.dropFirst("/api/auth".count)) : path
        if relative.hasPrefix("/sign-in") || relative.hasPrefix("/sign-up") { return Rule(limit: 3, window: 10) }
        return Rule(limit: 100, window: 10)
    }

    /// Counts one request; returns the seconds to wait when over the limit.
    func admit(key: String, rule: Rule) -> Int? {
        let now = clock.now.date
        if windows.count > 10_000 { windows = windows.filter { now.timeIntervalSince($0.value.start) < $0.value.length } }
        var window = windows[key] ?? Window(start: now, count: 0, length: rule.window)
        if now.timeIntervalSince(window.start) >= rule.window { window = Window(start: now, count: 0, length: rule.window) }
        guard window.count < rule.limit else {
            return max(1, Int((rule.window - now.timeIntervalSince(window.start)).rounded(.up)))
        }
        window.count += 1
        windows[key] = window
        return nil
    }

    /// The bucket's client part: IPv4 as is, IPv6 grouped per /64; no IP shares one bucket.
    static func clientKey(_ address: String?) -> String {
        guard let address else { return "unknown" }
        guard address.contains(":") else { return address }
        return address.split(separator: ":", omittingEmptySubsequences: false).prefix(4).joined(separator: ":")
    }
}

struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = TandemRequestContext
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        if request.method == .post && path.hasPrefix("/api/auth/") {
            let key = RateLimiter.clientKey(context.peerAddress) + "|" + path
            if let retry = await limiter.admit(key: key, rule: RateLimiter.rule(forAuthPath: path)) {
                var headers = HTTPFields()
                headers[.xRetryAfter] = String(retry)
                throw APIFailure(.tooManyRequests, nil, "Too many requests. Please try again later.", headers: headers)
            }
        }
        return try await next(request, context)
    }
}
