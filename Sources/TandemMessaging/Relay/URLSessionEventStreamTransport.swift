public import Foundation
public import TandemAccounts

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``EventStreamTransport`` over URLSession. `bytes(for:)` does not exist in
/// FoundationNetworking, so a data delegate forwards each received chunk into the stream; this
/// works the same on Apple platforms and Linux.
public struct URLSessionEventStreamTransport: EventStreamTransport {
    /// Longest silence tolerated between chunks; the relay's heartbeat comments keep a healthy
    /// stream well inside it.
    public let idleTimeout: TimeInterval

    public init(idleTimeout: TimeInterval = 90) {
        self.idleTimeout = idleTimeout
    }

    public func open(_ request: TransportRequest) -> AsyncThrowingStream<EventStreamChunk, any Error> {
        AsyncThrowingStream { continuation in
            let forwarder = ChunkForwarder(continuation)
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.timeoutIntervalForRequest = idleTimeout
            configuration.timeoutIntervalForResource = .infinity
            let session = URLSession(configuration: configuration, delegate: forwarder, delegateQueue: nil)
            var urlRequest = URLRequest(url: request.url)
            urlRequest.httpMethod = request.method
            urlRequest.httpShouldHandleCookies = false
            for header in request.headers { urlRequest.addValue(header.value, forHTTPHeaderField: header.name) }
            urlRequest.httpBody = request.body
            let task = session.dataTask(with: urlRequest)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }
}

/// Forwards URLSession delegate callbacks into an `AsyncThrowingStream`.
///
/// `@unchecked Sendable`: its only stored property is the continuation, which is itself
/// `Sendable` and safe to call from any thread; URLSession calls the delegate on its own queue.
private final class ChunkForwarder: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let continuation: AsyncThrowingStream<EventStreamChunk, any Error>.Continuation

    init(_ continuation: AsyncThrowingStream<EventStreamChunk, any Error>.Continuation) {
        self.continuation = continuation
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        var headers: [String: String] = [:]
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if let http = response as? HTTPURLResponse {
            for (key, value) in http.allHeaderFields {
                if let name = key as? String, let text = value as? String { headers[name.lowercased()] = text }
            }
        }
        continuation.yield(.head(status: status, headers: headers))
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        continuation.yield(.body(data))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error { continuation.finish(throwing: error) } else { continuation.finish() }
        session.finishTasksAndInvalidate()
    }
}
