import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import TandemAccounts
import TandemMessaging

/// ``EventStreamTransport`` on AsyncHTTPClient: the CLI's reader of `GET /kasia/stream`
/// (issue 11 item 3, issue 16 item 5).
///
/// FoundationNetworking's URLSession waits for a long response in a libcurl poll loop that keeps a
/// core busy while nothing arrives (an idle `chat listen` took ~90% of a core, `chat ui` ~38%);
/// AsyncHTTPClient waits in epoll on SwiftNIO's event loop, so an idle stream costs nothing.
/// TandemMessaging keeps URLSession as its default because it must build for iOS without NIO; only
/// the `tandem` executable links this. The transport only moves bytes: `Last-Event-ID`, the SSE
/// parser and the reconnect backoff stay in ``RelayEventStream``.
struct HTTPClientEventStreamTransport: EventStreamTransport {
    /// The process's one client (``StreamHTTPClient``); its read timeout bounds the silence
    /// between chunks, which the relay's heartbeat comments keep well inside.
    let client: HTTPClient
    /// Longest wait for the response head (connect, request, status line and fields).
    let headTimeout: TimeAmount

    func open(_ request: TransportRequest) -> AsyncThrowingStream<EventStreamChunk, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: EventStreamChunk.self, throwing: (any Error).self)
        let task = Task { [client, headTimeout] in
            do {
                var outgoing = HTTPClientRequest(url: request.url.absoluteString)
                outgoing.method = HTTPMethod(rawValue: request.method)
                for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
                if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
                // The deadline covers the head only: AsyncHTTPClient drops it once `execute`
                // returns, so the endless body is bounded by the read timeout alone.
                let response = try await client.execute(outgoing, timeout: headTimeout)
                var fields: [String: String] = [:]
                for field in response.headers { fields[field.name.lowercased()] = field.value }
                continuation.yield(.head(status: Int(response.status.code), headers: fields))
                for try await buffer in response.body {
                    continuation.yield(.body(Data(buffer.readableBytesView)))
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        // Ending iteration cancels the task, and with it the request and its connection.
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
