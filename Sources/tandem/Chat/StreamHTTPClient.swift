import AsyncHTTPClient
import NIOCore
import TandemProfile

/// The one AsyncHTTPClient of a `tandem` process that follows the relay's live stream (issue 16):
/// created when a streaming command starts and shut down when it ends, on success and on error,
/// so no connection or event-loop work outlives the command.
enum StreamHTTPClient {
    /// Silence tolerated between chunks before the connection counts as dead and
    /// ``RelayEventStream`` reconnects (the same 90 s as the URLSession transport's default).
    static let readTimeout = TimeAmount.seconds(90)
    static let connectTimeout = TimeAmount.seconds(10)
    static let headTimeout = TimeAmount.seconds(30)

    /// Runs `body` with a stream transport on a fresh client, then shuts the client down.
    static func withTransport<Result>(
        _ body: (HTTPClientEventStreamTransport) async throws -> Result
    ) async throws -> Result {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: connectTimeout, read: readTimeout)
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let result: Result
        do {
            result = try await body(HTTPClientEventStreamTransport(client: client, headTimeout: headTimeout))
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        return result
    }
}
