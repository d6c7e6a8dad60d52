import Foundation
import HTTPTypes
import Hummingbird
import TandemBasics

/// Fixed-window request counting per client and matched route (betterauth-api.md §11): 3 per
/// 10 s on `/sign-in*`, `/sign-up*` and `strictPaths`, 100 per 10 s on other auth POSTs. Over the limit:
/// 429 `{message}` with `X-Retry-After`. Time comes from the injected clock.
///
/// Memory is bounded (issue 14 audit, a flood of unique paths grew RSS by 300 MB): keys are
/// the client's address key and a *registered* route, so their length is bounded, and the table
/// is an LRU of `capacity` windows whose eviction is O(1). A window pushed out by a flood of
/// other clients only forgets that client's count, which errs towards admitting.
actor RateLimiter {
    struct Rule: Sendable {
        let limit: Int
        let window: TimeInterval
    }

    private struct Window {
        var start: Date
        var count: Int
    }

    static let defaultCapacity = 10_000

    private let clock: any WallClock
    private var windows: BoundedLRU<String, Window>

    init(clock: any WallClock, capacity: Int = RateLimiter.defaultCapacity) {
        self.clock = clock
        windows = BoundedLRU(capacity: capacity)
    }

    static func rule(forAuthPath path: String) -> Rule {
        let relative = path.hasPrefix("/api/auth") ? String(path.dropFirst("/api/auth".count)) : path
        if relative.hasPrefix("/sign-in") || relative.hasPrefix("/sign-up") || strictPaths.contains(relative) {
            return Rule(limit: 3, window: 10)
        }
        return Rule(limit: 100, window: 10)
    }

    /// Routes that check a password or tell whether a name exists get the sign-in limit too
    /// (issue 13): guessing a password through change-password or delete-user, or probing
    /// names through is-username-available, is as slow as through sign-in.
    static let strictPaths: Set<String> = ["/change-password", "/delete-user", "/is-username-available"]

    /// Counts one request; returns the seconds to wait when over the limit.
    func admit(key: String, rule: Rule) -> Int? {
        let now = clock.now.date
        var window = windows.value(for: key) ?? Window(start: now, count: 0)
        if now.timeIntervalSince(window.start) >= rule.window { window = Window(start: now, count: 0) }
        guard window.count < rule.limit else {
            return max(1, Int((rule.window - now.timeIntervalSince(window.start)).rounded(.up)))
        }
        window.count += 1
        windows.set(window, for: key)
        return nil
    }

    /// Number of windows held, for the memory bound's test.
    var windowCount: Int { windows.count }

    /// The bucket's client part: IPv4 as is, IPv6 grouped per /64 (see `ClientAddressKey`).
    static func clientKey(_ address: String?) -> String { ClientAddressKey.key(for: address) }
}

extension RateLimiter {
    /// Counts a POST on a registered `/api/auth/` route and throws 429 when its client is over the
    /// route's limit. Hummingbird resolves the route before router middleware runs, so `route`
    /// (`context.endpointPath`) is the route's pattern, or nil for a path no route matches; those
    /// fall through to 404 without a bucket. Nonisolated: only a counted request enters the actor.
    nonisolated func check(_ request: Request, route: String?, client: String?) async throws {
        guard request.method == .post, let route, route.hasPrefix("/api/auth/") else { return }
        let key = RateLimiter.clientKey(client) + "|" + route
        if let retry = await admit(key: key, rule: RateLimiter.rule(forAuthPath: route)) {
            var headers = HTTPFields()
            headers[.xRetryAfter] = String(retry)
            throw APIFailure(.tooManyRequests, nil, "Too many requests. Please try again later.", headers: headers)
        }
    }
}
