import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
public import TandemAccounts

/// ``HTTPTransport`` on AsyncHTTPClient: how the `tandem` CLI (and `tandem-bench`, which measures
/// the CLI's path) sends the client libraries' requests (issue 12 "Figures").
///
/// FoundationNetworking's URLSession runs every request through libcurl, with a dispatch-source
/// wake-up per chunk of the body: in a 10,000-record contacts sync most of the client's CPU was
/// system calls. AsyncHTTPClient moves the bytes on SwiftNIO's event loop and keeps connections
/// alive between requests. The client libraries keep URLSession as their default because it must build
/// for iOS without NIO; this module is linked by the executables only.
///
/// Like ``URLSessionTransport`` it keeps no cookies (the profile's `SessionCookieStore` does)
/// and no cache, follows redirects, and answers every status as a response: only a failure to
/// exchange bytes throws.
public struct HTTPClientTransport: HTTPTransport {
    /// The process's client: created on first use and never shut down, so it lives exactly as
    /// long as the process (AsyncHTTPClient's own shared client does the same).
    static let processClient: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = HTTPClient.Configuration.Timeout(connect: .seconds(10), read: .seconds(30))
        // Idle connections go well before a Tandem server closes them (60 s, issue 50 item 5),
        // so a request never goes out on one the server is closing.
        configuration.connectionPool.idleTimeout = .seconds(30)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Largest response body accepted; the biggest the server sends is a page of 1,000 nodes.
    public static let maxResponseBytes = 256 * 1024 * 1024

    private let client: HTTPClient
    private let userAgent: String
    private let timeout: TimeAmount

    /// `timeout` bounds the wait for the response head; silence longer than 30 s while the
    /// body arrives fails too (the same 30 s as ``URLSessionTransport``'s default).
    public init(timeout: Duration = .seconds(30), userAgent: String = "Tandem") {
        client = Self.processClient
        self.userAgent = userAgent
        let (seconds, attoseconds) = timeout.components
        self.timeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        outgoing.headers.add(name: "User-Agent", value: userAgent)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(outgoing, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.maxResponseBytes)
            return TransportResponse(
                status: Int(response.status.code),
                headers: response.headers.map { (name: $0.name, value: $0.value) },
                body: Data(body.readableBytesView))
        } catch {
            throw HTTPClientTransportError(reason: String(describing: error))
        }
    }
}
