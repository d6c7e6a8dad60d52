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
        messages = AsyncThrowingStream { continuation in
            @Sendable func receiveNext() {
                task.receive { result in
                    switch result {
                    case .success(.string(let text)):
                        continuation.yield(text)
                        receiveNext()
                    case .success(.data(let data)):
                        continuation.yield(String(decoding: data, as: UTF8.self))
                        receiveNext()
                    case .success:
                        receiveNext()
                    case .failure(let error):
                        if task.closeCode != .invalid {
                            continuation.finish()
                        } else {
                            continuation.finish(throwing: error)
                        }
                    }
                }
            }
            receiveNext()
            continuation.onTermination = { _ in task.cancel(with: .goingAway, reason: nil) }
        }
    }

    func send(_ text: String) async throws {
        try await task.send(.string(text))
    }

    func close() async {
        task.cancel(with: .normalClosure, reason: nil)
    }
}
