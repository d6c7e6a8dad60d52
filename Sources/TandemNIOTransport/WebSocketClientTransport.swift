public import Foundation
public import KaspaNode
import Logging
public import NIOCore
public import NIOPosix
import WSClient

#if canImport(Glibc)
    import Glibc
#endif

/// KaspaNode's ``WebSocketTransport`` on swift-websocket's NIO client (issue 24 item 1): what
/// `tandem` and the tests inject, as they inject ``HTTPClientTransport`` for HTTP, so the
/// libraries stay free of NIO. `wss://` URLs use NIOSSL with the system's trust roots.
public struct WebSocketClientTransport: WebSocketTransport {
    /// The largest message and frame accepted (``kaspaNodeMaximumMessageSize``, the rusty-kaspa
    /// client's: a busy hour's chain page is tens of MiB).
    public var maximumMessageSize: Int
    /// The event loops the connections' sockets run on.
    public var eventLoopGroup: any EventLoopGroup

    /// `eventLoopGroup` defaults to NIO's shared loops; a server gives its chain ingest
    /// ``BackgroundEventLoop/group``, so that assembling a node's multi-megabyte pages does not
    /// hold up the loops that serve its requests.
    public init(
        maximumMessageSize: Int = kaspaNodeMaximumMessageSize,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.maximumMessageSize = maximumMessageSize
        self.eventLoopGroup = eventLoopGroup
    }

    public func connect(to url: URL, timeout: Duration) async throws -> any WebSocketConnection {
        try await connect(to: url, timeout: timeout, receivingOn: .sharedPool)
    }

    public func connect(to url: URL, timeout: Duration, receivingOn placement: ReadingPlacement) async throws
        -> any WebSocketConnection
    {
        try await WebSocketClientConnection.open(
            url, timeout: timeout, maximumSize: maximumMessageSize, eventLoopGroup: eventLoopGroup, placement: placement
        )
    }
}

/// One event loop thread of lower CPU priority (nice 10 on Linux), for connections whose traffic
/// is background work: a server's chain ingest reads a node's pages through it. Lives as long as
/// the process, as NIO's shared loops do.
public enum BackgroundEventLoop {
    /// The one loop. Its thread lowers its own priority as its first task, before any channel can
    /// be registered; where that is not permitted (a process already above nice 10) it runs as
    /// the process does. Not to be shut down.
    public static let group: MultiThreadedEventLoopGroup = {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        #if canImport(Glibc)
            // The loop's first task: on Linux the nice value is per thread, and 0 names the caller.
            group.next().execute { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10) }
        #endif
        return group
    }()
}

/// One connection: the client's structured `connect` runs in ``task`` for the connection's life;
/// messages leave it through a stream, and ``close()`` ends it.
///
/// At most ``maximumQueuedMessages`` wait for the reader (issue 50 item 2): a peer that gets
/// further ahead than that is disconnected, with the reason, so that a flood costs a reconnect,
/// not this process's memory. (A stream that stops reading frames while its reader is behind,
/// swift-async-algorithms' channel, held up the close handshakes of stalled nodes under a loaded
/// test run; the cap is the simpler bound.)
final class WebSocketClientConnection: WebSocketConnection {
    /// The most messages that wait for the reader before the connection is ended.
    static let maximumQueuedMessages = 64

    let messages: AsyncThrowingStream<String, any Error>
    private let writer: WebSocketOutboundWriter
    private let closing: AsyncStream<Void>.Continuation
    private let task: Task<Void, Never>

    private init(
        messages: AsyncThrowingStream<String, any Error>, writer: WebSocketOutboundWriter,
        closing: AsyncStream<Void>.Continuation, task: Task<Void, Never>
    ) {
        self.messages = messages
        self.writer = writer
        self.closing = closing
        self.task = task
    }

    static func open(
        _ url: URL, timeout: Duration, maximumSize: Int, eventLoopGroup: any EventLoopGroup,
        placement: ReadingPlacement
    ) async throws -> WebSocketClientConnection {
        let (messages, inbound) = AsyncThrowingStream.makeStream(
            of: String.self, bufferingPolicy: .bufferingOldest(maximumQueuedMessages))
        let (ready, readySink) = AsyncThrowingStream.makeStream(of: WebSocketOutboundWriter.self)
        let (closeRequests, closing) = AsyncStream.makeStream(of: Void.self)
        var logger = Logger(label: "tandem.websocket")
        logger.logLevel = .critical
        let configuration = WebSocketClientConfiguration(maxFrameSize: maximumSize)
        /// Hands `text` to the reader, or ends the connection when the reader is too far behind.
        @Sendable func queue(_ text: String) throws {
            if case .dropped = inbound.yield(text) { throw WebSocketTransportError.readerBehind(maximumQueuedMessages) }
        }
        // Receiving (assembling messages, making their text) runs at `placement`.
        let task = placement.startTask {
            do {
                _ = try await WebSocketClient.connect(
                    url: url.absoluteString, configuration: configuration, eventLoopGroup: eventLoopGroup,
                    logger: logger
                ) { inboundFrames, outbound, _ in
                    readySink.yield(outbound)
                    readySink.finish()
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        group.addTask {
                            for try await message in inboundFrames.messages(maxSize: maximumSize) {
                                switch message {
                                case .text(let text): try queue(text)
                                case .binary(let buffer): try queue(String(buffer: buffer))
                                }
                            }
                        }
                        group.addTask { for await _ in closeRequests {} }
                        try await group.next()
                        group.cancelAll()
                    }
                }
                inbound.finish()
                readySink.finish(throwing: WebSocketTransportError.closedBeforeOpening)
            } catch {
                inbound.finish(throwing: error)
                readySink.finish(throwing: error)
            }
        }
        let writer: WebSocketOutboundWriter
        do {
            writer = try await withThrowingTaskGroup(of: WebSocketOutboundWriter?.self) { group in
                group.addTask {
                    for try await writer in ready { return writer }
                    throw WebSocketTransportError.closedBeforeOpening
                }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let writer = first else {
                    throw WebSocketTransportError.timedOut
                }
                return writer
            }
        } catch {
            closing.finish()
            task.cancel()
            throw error
        }
        return WebSocketClientConnection(messages: messages, writer: writer, closing: closing, task: task)
    }

    func send(_ text: String) async throws {
        try await writer.write(.text(text))
    }

    func close() async {
        closing.finish()
        await task.value
    }
}

/// Why a WebSocket did not open.
enum WebSocketTransportError: Error, CustomStringConvertible {
    case timedOut
    case closedBeforeOpening
    case readerBehind(Int)

    var description: String {
        switch self {
        case .timedOut: "the WebSocket handshake did not finish in time"
        case .closedBeforeOpening: "the connection closed before the WebSocket opened"
        case .readerBehind(let limit): "the peer sent more than \(limit) messages ahead of their reader"
        }
    }
}
