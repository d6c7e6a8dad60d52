import HTTPTypes
import Hummingbird
import TandemAPI

/// Cross-origin access to the kasia-indexer routes under `/kasia` (issue 43 item 5): a browser
/// client (Kasia web) on any origin reads them and posts transactions, as it reads a
/// kasia-indexer, which allows every origin. No credentials are involved: `*` never lets a
/// browser send this server's cookies with such a request, and no `/kasia` route reads them.
///
/// A preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered here, before the
/// route table, with 204 and the allowed methods and headers; every other `/kasia` answer
/// (errors included) carries `Access-Control-Allow-Origin: *`.
enum KasiaCORS {
    static let allowedMethods = "GET, POST, OPTIONS"
    /// What the routes read from a request: the body's type and the stream's resume point
    /// (`EventSource` sends `Last-Event-ID` itself, a `fetch`-based stream client as a header).
    static let allowedHeaders = "Content-Type, Last-Event-ID"
    /// What a page may read of an answer: the request id, and when to retry a 429 or 503.
    static let exposedHeaders = "X-Request-Id, Retry-After"
    /// How long a browser may reuse a preflight's answer, in seconds.
    static let maxAge = "86400"

    /// Whether `path` is one of the kasia-indexer routes.
    static func covers(_ path: String) -> Bool {
        path == APIPath.kasiaPrefix || path.hasPrefix(APIPath.kasiaPrefix + "/")
    }

    /// The answer to a preflight of a `/kasia` route, or nil for any other request.
    static func preflight(_ request: Request) -> Response? {
        guard request.method == .options, covers(request.uri.path),
            request.headers[.accessControlRequestMethod] != nil
        else { return nil }
        var headers = HTTPFields()
        headers[.accessControlAllowOrigin] = "*"
        headers[.accessControlAllowMethods] = allowedMethods
        headers[.accessControlAllowHeaders] = allowedHeaders
        headers[.accessControlMaxAge] = maxAge
        return Response(status: .noContent, headers: headers)
    }

    /// Adds the cross-origin fields to the answer of a `/kasia` request.
    static func allow(_ response: inout Response, for request: Request) {
        guard covers(request.uri.path) else { return }
        response.headers[.accessControlAllowOrigin] = "*"
        response.headers[.accessControlExposeHeaders] = exposedHeaders
    }
}
