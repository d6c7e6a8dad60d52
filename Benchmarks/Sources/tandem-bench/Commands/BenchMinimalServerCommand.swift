import ArgumentParser
import BenchSupport
import Hummingbird
import Logging
import NIOCore
import TandemAPI

/// `tandem-bench relay-minimal-server` (hidden): the smallest Hummingbird 2 application that
/// answers the relay bench's ceiling lane, for `tandem-bench relay`'s "minimal Hummingbird" lane.
///
/// One `POST /users/login` route on Hummingbird's own `BasicRequestContext`, no middleware, a
/// fixed 410 JSON body of the size Tandem's server answers there, the request body never read.
/// Beside Tandem's own ceiling lane (same path, same client, same connections) it splits the
/// server's CPU per empty POST into what Hummingbird and NIO cost and what Tandem's middleware
/// chain, request context and error mapping add (issue 11 "Figures", session 8).
/// Prints `port N` on stdout once listening and serves until it is killed.
struct BenchMinimalServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay-minimal-server",
        abstract: "Serve one fixed POST route with a bare Hummingbird application (internal).",
        shouldDisplay: false
    )

    /// Same bytes as Tandem's answer to the removed legacy login, so both lanes write the same.
    static let body =
        #"{"code":"LEGACY_LOGIN_REMOVED","message":"POST /users/login was removed. Sign in again with your username and password."}"#

    func run() async throws {
        var logger = Logger(label: "bench.relay-minimal-server")
        logger.logLevel = .critical
        let router = Router()
        let buffer = ByteBuffer(string: Self.body)
        router.post(RouterPath(APIPath.legacyLogin)) { _, _ -> Response in
            Response(
                status: .gone, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: buffer))
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "tandem"),
            onServerRunning: { channel in CommandIO.write("port \(channel.localAddress?.port ?? 0)\n") },
            logger: logger)
        try await app.runService()
    }
}
