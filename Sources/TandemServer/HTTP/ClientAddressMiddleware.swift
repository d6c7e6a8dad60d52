import Hummingbird

/// Sets `context.clientAddress` from the TCP peer, or from `X-Forwarded-For` when the peer
/// is a trusted proxy (`TrustedProxies`), before the rate limiters read it.
struct ClientAddressMiddleware: RouterMiddleware {
    typealias Context = TandemRequestContext
    let proxies: TrustedProxies

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var context = context
        context.clientAddress = proxies.clientAddress(
            peer: context.peerAddress, forwardedFor: request.headers[values: .xForwardedFor])
        return try await next(request, context)
    }
}
