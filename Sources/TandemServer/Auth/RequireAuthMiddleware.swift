import HTTPTypes
import Hummingbird

/// BetterAuth's `sessionMiddleware` for our guarded routes (betterauth-api.md §3
/// requireAuth): no live session ⇒ 401 `{"code":"UNAUTHORIZED","message":"Unauthorized"}`;
/// a refreshed cookie is forwarded on the response.
struct RequireAuthMiddleware: RouterMiddleware {
    typealias Context = TandemRequestContext
    let sessions: SessionAuthority

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard case .valid(let resolved, let setCookie) = try await sessions.resolve(request) else {
            throw APIFailure.unauthorized
        }
        var context = context
        context.authenticated = resolved
        var response = try await next(request, context)
        if let setCookie { response.headers.append(HTTPField(name: .setCookie, value: setCookie)) }
        return response
    }
}
