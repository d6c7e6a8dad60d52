import HTTPTypes
import Hummingbird
import Logging

/// What every request passes before its route, in one middleware: one async frame and one copy
/// of the context per request instead of one for each of seven middlewares (issue 29, the
/// get-session figure). In order:
/// 1. the request id (`RequestID`): kept or made, put in the logger's metadata as `request_id`
///    and echoed on every answer as `X-Request-Id`; at debug level the request is logged;
/// 2. every error thrown below, this middleware's own checks included, becomes its JSON answer
///    (`ErrorResponses`);
/// 3. 405 for a method the path does not serve (`AllowedMethods`);
/// 4. 404 for a trailing or doubled slash (`StrictPath`);
/// 5. the client's address: the TCP peer, or `X-Forwarded-For` behind a trusted proxy
///    (`TrustedProxies`), before the rate limits read it;
/// 6. the auth routes' rate limits (`RateLimiter`), when on;
/// 7. the origin rule for cookie-bearing state changes (`OriginPolicy`, betterauth-api.md §10).
///
/// A browser's preflight of a `/kasia` route is answered before step 3, and every `/kasia`
/// answer allows any origin (`KasiaCORS`).
struct FrontDoorMiddleware: RouterMiddleware {
    typealias Context = TandemRequestContext
    let methods: AllowedMethods
    let proxies: TrustedProxies
    let limiter: RateLimiter?
    let origins: OriginPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let id = RequestID.of(request.headers)
        var context = context
        context.logger[metadataKey: "request_id"] = .string(id)
        if context.logger.logLevel <= .debug {
            context.logger.debug(
                "Request",
                metadata: ["hb.request.method": "\(request.method.rawValue)", "hb.request.path": "\(request.uri.path)"])
        }
        var response: Response
        do {
            if let refusal = try await admit(request, context: &context) {
                response = refusal
            } else {
                response = try await next(request, context)
            }
        } catch {
            response = ErrorResponses.response(for: error, to: request, logger: context.logger)
        }
        response.headers[.xRequestID] = id
        KasiaCORS.allow(&response, for: request)
        return response
    }

    /// Steps 3–7: an answer that ends the request here, or nil to go on to the route.
    private func admit(_ request: Request, context: inout Context) async throws -> Response? {
        if let preflight = KasiaCORS.preflight(request) { return preflight }
        if let refusal = methods.refusal(for: request) { return refusal }
        if StrictPath.refuses(request.uri.path) { return Response(status: .notFound) }
        if !proxies.isEmpty {
            context.clientAddress = proxies.clientAddress(
                peer: context.peerAddress, forwardedFor: request.headers[values: .xForwardedFor])
        }
        try await limiter?.check(request, route: context.endpointPath, client: context.clientAddress)
        try origins.checkStateChanging(request)
        return nil
    }
}
