public import Foundation

/// The WebSocket seam (ARCHITECTURE.md "Seams"): text messages over one connection, beside
/// ``HTTPTransport`` for whole exchanges. `URLSessionWebSocketTransport` serves Apple platforms;
/// the executables inject one on swift-websocket's NIO client (TandemNIOTransport).
public protocol WebSocketTransport: Sendable {
    /// Opens a connection to `url` (`ws://` or `wss://`), failing after `timeout`.
    func connect(to url: URL, timeout: Duration) async throws -> any WebSocketConnection
    /// The same, with the connection's own receiving work (assembling and converting messages)
    /// run at `placement`, as for the reader of a lower-priority consumer.
    func connect(to url: URL, timeout: Duration, receivingOn placement: ReadingPlacement) async throws
        -> any WebSocketConnection
}

extension WebSocketTransport {
    /// A transport with no receiving work of its own to place ignores `placement`.
    public func connect(to url: URL, timeout: Duration, receivingOn placement: ReadingPlacement) async throws
        -> any WebSocketConnection
    {
        try await connect(to: url, timeout: timeout)
    }
}

/// The largest message a node client accepts: the rusty-kaspa client's own limit (1 GiB), so a
/// chain page of a busy hour (2,480 merged blocks with every accepted transaction, tens of MiB;
/// kaspa-node.md §11) is read whole, as the SDK reads it.
public let kaspaNodeMaximumMessageSize = 1 << 30

/// One open WebSocket.
public protocol WebSocketConnection: Sendable {
    /// The text messages the peer sends, in order. Finishes when the peer closes the connection;
    /// throws when it fails. Read by one consumer.
    var messages: AsyncThrowingStream<String, any Error> { get }
    /// Sends one text message; throws when the connection is gone.
    func send(_ text: String) async throws
    /// Closes the connection; `messages` then finishes.
    func close() async
}
