public import Foundation

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// ``WebSocketTransport`` on `URLSessionWebSocketTask`: the apps' transport on Apple platforms.
/// (The `tandem` executables on Linux inject swift-websocket's NIO client instead, as they do
/// for HTTP: FoundationNetworking's WebSocket support depends on how libcurl was built.)
public struct URLSessionWebSocketTransport: WebSocketTransport {
    private let session: URLSession
    /// The largest message accepted (``kaspaNodeMaximumMessageSize``, the rusty-kaspa client's).
    public var maximumMessageSize: Int

    public init(session: URLSession = .shared, maximumMessageSize: Int = kaspaNodeMaximumMessageSize) {
        self.session = session
        self.maximumMessageSize = maximumMessageSize
    }

    public func connect(to url: URL, timeout: Duration) async throws -> any WebSocketConnection {
        let task = session.webSocketTask(with: url)
        task.maximumMessageSize = maximumMessageSize
        task.resume()
        let connection = URLSessionWebSocketConnection(task: task)
        // The handshake completes with the first exchange; a ping proves it within the limit.
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    task.sendPing { error in
                        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
                    }
                }
                return true
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return false
            }
            let opened = try await group.next() ?? false
            group.cancelAll()
            if !opened {
                task.cancel(with: .goingAway, reason: nil)
                throw URLError(.timedOut)
            }
        }
        return connection
    }
}

/// One `URLSessionWebSocketTask`. `@unchecked Sendable` is sound: its only stored properties are
/// the task (documented thread-safe) and the stream, both immutable after init.
final class URLSessionWebSocketConnection: WebSocketConnection, @unchecked Sendable {
    private let task: URLSessionWebSocketTask
    let messages: AsyncThrowingStream<String, any Error>

    init(task: URLSessionWebSocketTask) {
        self.task = task
        // Pulled: the next message is received only when the reader asks for it, so a peer that
        // sends faster than the reader reads is held back by the socket (issue 50 item 2).
        messages = AsyncThrowingStream {
            while true {
                let message: URLSessionWebSocketTask.Message
                do { message = try await task.receive() } catch {
                    if task.closeCode != .invalid { return nil }
                    throw error
                }
                switch message {
                case .string(let text): return text
                case .data(let data): return String(decoding: data, as: UTF8.self)
                @unknown default: continue
                }
            }
        }
    }

    func send(_ text: String) async throws {
        try await task.send(.string(text))
    }

    func close() async {
        task.cancel(with: .normalClosure, reason: nil)
    }
}
