import ArgumentParser
import TandemMessaging

/// The live-stream transport of `chat listen` and `chat ui` (issue 16): AsyncHTTPClient by
/// default. The hidden `--stream-transport urlsession` keeps the library's URLSession transport
/// reachable so `tandem-bench stream-idle` can measure both side by side in one run.
struct StreamTransportOptions: ParsableArguments {
    enum Choice: String, ExpressibleByArgument, CaseIterable {
        case asyncHTTPClient = "async-http-client"
        case urlSession = "urlsession"
    }

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Live-stream transport: async-http-client or urlsession (for benchmarks).", visibility: .hidden))
    var streamTransport: Choice = .asyncHTTPClient

    /// Runs `body` with the chosen transport; the AsyncHTTPClient one is shut down after it.
    func withTransport<Result>(_ body: (any EventStreamTransport) async throws -> Result) async throws -> Result {
        switch streamTransport {
        case .asyncHTTPClient: try await StreamHTTPClient.withTransport { try await body($0) }
        case .urlSession: try await body(URLSessionEventStreamTransport())
        }
    }
}
