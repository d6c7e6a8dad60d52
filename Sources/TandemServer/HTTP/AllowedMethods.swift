import HTTPTypes
import Hummingbird
import TandemBasics

/// The methods each registered path answers, filled once while the router is built (routes are
/// registered after the middleware that reads them) and only read afterwards. Fixed paths are one
/// dictionary lookup; the few paths with `{name}` segments are matched segment by segment.
///
/// A request whose path is served, but not with its method, is 405 Method Not Allowed with an
/// `Allow` field listing the methods that are (RFC 9110 §15.5.6), answered before any other
/// check (origin, rate limits) looks at it. TRACE and CONNECT are served on no path, so they are
/// 405 everywhere (issue 14 audit; RFC 9110 §9.3.8: TRACE would echo the request, cookies
/// included); on a path nothing serves, `Allow` is empty, which RFC 9110 §10.2.1 reads as "no
/// method". Other requests on unknown paths go on to the router's 404.
final class AllowedMethods: Sendable {
    private struct Index {
        var fixed: [String: Set<String>] = [:]
        var patterns: [(segments: [Substring], method: String)] = []
        /// The answer for each fixed path, patterns included, worked out once: the served
        /// paths (every relay submission among them) skip the split and the pattern walk.
        var resolved: [String: [String]] = [:]
    }

    private let index = Locked(Index())

    func freeze(_ entries: [RouteEntry]) {
        var built = Index()
        for entry in entries {
            if entry.path.contains("{") {
                built.patterns.append(
                    (entry.path.split(separator: "/", omittingEmptySubsequences: false), entry.method))
            } else {
                built.fixed[entry.path, default: []].insert(entry.method)
            }
        }
        for (path, methods) in built.fixed {
            built.resolved[path] = Self.methods(of: path, fixed: methods, patterns: built.patterns)
        }
        index.withLock { $0 = built }
    }

    /// Methods of every route whose path matches `path`, sorted; `{name}` matches one segment.
    func allowed(path: String) -> [String] {
        index.withLock { index in
            index.resolved[path] ?? Self.methods(of: path, fixed: [], patterns: index.patterns)
        }
    }

    private static func methods(
        of path: String, fixed: Set<String>, patterns: [(segments: [Substring], method: String)]
    ) -> [String] {
        var methods = fixed
        if !patterns.isEmpty {
            let segments = path.split(separator: "/", omittingEmptySubsequences: false)
            for pattern in patterns where matches(pattern.segments, segments) {
                methods.insert(pattern.method)
            }
        }
        return methods.sorted()
    }

    /// The 405 answer for `request`, or nil when its method is served on its path (or nothing
    /// is served there).
    func refusal(for request: Request) -> Response? {
        let allowed = allowed(path: request.uri.path)
        let refused =
            request.method == .trace || request.method == .connect
            || (!allowed.isEmpty && !allowed.contains(request.method.rawValue))
        guard refused else { return nil }
        var headers = HTTPFields()
        headers[.allow] = allowed.joined(separator: ", ")
        return Response(status: .methodNotAllowed, headers: headers)
    }

    private static func matches(_ pattern: [Substring], _ segments: [Substring]) -> Bool {
        guard pattern.count == segments.count else { return false }
        return zip(pattern, segments).allSatisfy { part, segment in
            part.hasPrefix("{") && part.hasSuffix("}") ? !segment.isEmpty : part == segment
        }
    }
}
