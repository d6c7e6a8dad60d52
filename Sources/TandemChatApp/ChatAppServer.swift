import Foundation
import HTTPTypes
public import Hummingbird
public import Logging
import ServiceLifecycle
public import TandemMessaging

/// `tandem app`'s server (issue 47): the profile's chat as a web app on the loopback interface,
/// served by the user's own process, which keeps the keys. The page asks the library through a
/// small JSON API; every feature there is the ``Messenger`` the CLI uses.
///
/// Every request passes ``ChatAppGate`` before routing. The server binds `127.0.0.1` only, on
/// `port` (0: a free one); `onServerRunning` gets the bound port once it listens, and
/// ``ChatAppAccess/openURL`` is the link to print.
public func buildChatApp(
    messenger: Messenger, access: ChatAppAccess, port: Int = 0, logger: Logger = Logger(label: "tandem.app"),
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: ChatAppGate(access: access))
    ChatAppAssets.register(on: router)
    let events = ChatAppEvents(messenger: messenger)
    ChatAppAPI(messenger: messenger, events: events).register(on: router)
    return Application(
        router: router,
        configuration: .init(address: .hostname("127.0.0.1", port: port), serverName: "tandem-app"),
        services: [events],
        onServerRunning: { channel in
            let bound = channel.localAddress?.port ?? 0
            access.listening(on: bound)
            await onServerRunning(bound)
        },
        logger: logger)
}

/// Runs ``ChatAppAccess`` on every request, matched route or not: 403 with the reason, or the
/// token traded for the session cookie, or on to the router.
struct ChatAppGate<Context: RequestContext>: RouterMiddleware {
    let access: ChatAppAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let decision = access.decide(
            method: request.method.rawValue, path: request.uri.path,
            token: request.uri.queryParameters.get("token"), host: request.head.authority,
            origin: request.headers[.origin], cookie: request.headers[.cookie])
        switch decision {
        case .allow:
            return try await next(request, context)
        case .open(let setCookie):
            return Response(
                status: .seeOther,
                headers: [
                    .location: "/", .setCookie: setCookie, .cacheControl: "no-store", .referrerPolicy: "no-referrer",
                ])
        case .refuse(let reason):
            return ChatAppJSON.error(reason, status: .forbidden)
        }
    }
}

/// The app's follower of the messenger runs as a service beside the HTTP server, until the
/// app shuts down.
extension ChatAppEvents: Service {
    func run() async throws {
        await cancelWhenGracefulShutdown { await self.run(keepAlive: .seconds(15)) }
        finishAll()
    }
}
