import HTTPTypes
import Hummingbird

/// One registered route: method and path, as the OpenAPI document lists them.
public struct RouteEntry: Hashable, Sendable, CustomStringConvertible {
    public let method: String
    public let path: String
    public var description: String { "\(method) \(path)" }
}

/// Registers handlers on the router and remembers every route, so a test can compare the
/// router with `/openapi.json` both ways.
final class RouteTable {
    private(set) var entries: [RouteEntry] = []

    func add<Context: RequestContext>(
        _ router: some RouterMethods<Context>, _ method: HTTPRequest.Method, _ path: String,
        fullPath: String? = nil,
        _ handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) {
        router.on(RouterPath(path), method: method, use: handler)
        entries.append(RouteEntry(method: method.rawValue, path: fullPath ?? path))
    }
}
