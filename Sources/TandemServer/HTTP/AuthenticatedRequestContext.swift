public import Hummingbird

/// The context of a route behind requireAuth (issue 26 item 5): `RequireAuthMiddleware` resolves
/// the session on the parent context, and this child context carries it non-optional, so a
/// guarded handler cannot forget to check it. A request that reaches the conversion without a
/// session (no middleware in front) is refused 401, as requireAuth refuses it.
public struct AuthenticatedRequestContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The signed-in session and its user.
    public let session: ResolvedSession
    /// The client the rate limits count (as on ``TandemRequestContext``).
    public let clientAddress: String?

    public init(context: TandemRequestContext) throws {
        guard let session = context.authenticated else { throw APIFailure.unauthorized }
        coreContext = context.coreContext
        self.session = session
        clientAddress = context.clientAddress
    }

    /// Bodies above this are refused with 413 before decoding (issue 4, security).
    public var maxUploadSize: Int { ServerLimits.maxBodyBytes }
}
