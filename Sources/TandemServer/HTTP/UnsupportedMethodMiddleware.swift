import HTTPTypes
import Hummingbird

/// TRACE and CONNECT are served on no path, so they are 405 Method Not Allowed rather than
/// 404 (issue 14 audit; RFC 9110 §9.3.8: TRACE would echo the request, cookies included, and
/// a server that does not support it says so).
struct UnsupportedMethodMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if request.method == .trace || request.method == .connect { return Response(status: .methodNotAllowed) }
        return try await next(request, context)
    }
}
