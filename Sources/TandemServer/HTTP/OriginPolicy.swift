import Foundation
import HTTPTypes
import Hummingbird

/// BetterAuth's CSRF/origin rules (betterauth-api.md §10), never stricter: the server's own
/// origin (from the request's Host) and the configured `trustedOrigins` are trusted; entries
/// like `myapp://` trust a whole custom scheme.
struct OriginPolicy: Sendable {
    let trustedOrigins: [String]

    /// Rule 1 on every request: GET, HEAD and OPTIONS pass, any other method goes through
    /// `checkCookieRequest`.
    func checkStateChanging(_ request: Request) throws {
        switch request.method {
        case .get, .head, .options: return
        default: try checkCookieRequest(request)
        }
    }

    /// Rule 1: a cookie-bearing non-GET request needs a trusted Origin (or Referer, or the Expo
    /// client's `expo-origin`).
    func checkCookieRequest(_ request: Request) throws {
        guard CookieHeader.hasCookies(request) else { return }
        guard let origin = requestOrigin(request), origin != "null" else {
            throw APIFailure(.forbidden, .missingOrNullOrigin, "Missing or null Origin")
        }
        guard isTrusted(origin, request: request) else {
            throw APIFailure(.forbidden, .invalidOrigin, "Invalid origin")
        }
    }

    /// Rule 2, first-login CSRF on sign-up: block cross-site navigations; an Origin or Referer,
    /// when present, must be trusted. Requests with none (curl, native apps) pass.
    func checkFirstLogin(_ request: Request) throws {
        let site = request.headers[.secFetchSite]?.lowercased()
        let mode = request.headers[.secFetchMode]?.lowercased()
        if site == "cross-site" && mode == "navigate" {
            throw APIFailure(
                .forbidden, .crossSiteNavigationLoginBlocked,
                "Cross-site navigation login blocked. This request appears to be a CSRF attack.")
        }
        if let origin = requestOrigin(request) {
            guard origin != "null", isTrusted(origin, request: request) else {
                throw APIFailure(.forbidden, .invalidOrigin, "Invalid origin")
            }
        } else if site == "cross-site" {
            throw APIFailure(.forbidden, .invalidOrigin, "Invalid origin")
        }
    }

    /// Rule 3: `callbackURL` must be a safe relative path (`CallbackURLRule`) or a trusted
    /// absolute URL; a value starting with `/` is never read as absolute, and an absolute one
    /// with control characters or spaces is refused before parsing (browsers strip them).
    func checkCallbackURL(_ value: String, request: Request) throws {
        if value.hasPrefix("/") {
            if CallbackURLRule.isSafeRelativePath(value) { return }
        } else if !CallbackURLRule.hasControlOrSpace(value), let url = URL(string: value),
            let origin = Self.origin(of: url), isTrusted(origin, request: request)
        {
            return
        }
        throw APIFailure(.forbidden, .invalidCallbackURL, "Invalid callbackURL")
    }

    func isTrusted(_ origin: String, request: Request) -> Bool {
        let origin = origin.lowercased()
        if let host = request.head.authority?.lowercased(), origin == "http://" + host || origin == "https://" + host {
            return true
        }
        return trustedOrigins.contains { entry in
            let entry = entry.lowercased()
            if entry.hasSuffix("://") { return origin.hasPrefix(entry) }
            return origin == entry
        }
    }

    private func requestOrigin(_ request: Request) -> String? {
        if let origin = request.headers[.origin] { return origin }
        if let expo = request.headers[.expoOrigin] { return expo }
        if let referer = request.headers[.referer] {
            return URL(string: referer).flatMap(Self.origin(of:)) ?? "null"
        }
        return nil
    }

    static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        guard let host = url.host?.lowercased() else { return scheme + "://" }
        return scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
    }
}
