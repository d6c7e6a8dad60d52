import Hummingbird

/// Sets `context.clientAddress` from the TCP peer, or from `X-Forwarded-For` when the peer
/// is a trusted proxy (`TrustedProxies`), before the rate limiters read it. With no proxy
/// configured the context's client is already the peer, so nothing is parsed or looked up.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = TandemRequestContext
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if proxies.isEmpty { return try await next(request, context) }
        var context = context
        context.clientAddress = proxies.clientAddress(
            peer: context.peerAddress, forwardedFor: request.headers[values: .xForwardedFor])
        return try await next(request, context)
    }
}
