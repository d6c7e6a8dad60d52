import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import TandemServer

/// Issue 50 item 5 over real loopback sockets: a client that sends half a request, or a body
/// at a trickle, is closed; one address holding its share of connections is answered 503 with
/// `Retry-After`, and served again once one closes.
@Suite struct ConnectionGuardTests {
    /// A server whose clients get `headerTimeout` for a request head and 3 connections each.
    static func withGuardedServer(
        headerTimeout: Duration = .seconds(1), idleTimeout: Duration = .seconds(60),
        _ body: @Sendable (Int) async throws -> Void
    ) async throws {
        let server = try TestServer()
        var configuration = server.configuration
        configuration.connections = ConnectionLimits(
            headerTimeout: headerTimeout, idleTimeout: idleTimeout, connectionsPerAddress: 3)
        try await LoopbackServer.run(configuration: configuration, store: server.store) { _, port in
            try await body(port)
        }
    }

    /// One raw TCP connection to the server.
    struct RawConnection {
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>

        static func open(_ port: Int) async throws -> RawConnection {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(
                host: "127.0.0.1", port: port
            ) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
            return RawConnection(channel: channel)
        }

        /// Sends `text` and reads the first chunk of the answer, keeping the connection open.
        func first(_ text: String) async throws -> String {
            try await channel.outbound.write(ByteBuffer(string: text))
            var iterator = channel.inbound.makeAsyncIterator()
            return try await iterator.next().map { String(buffer: $0) } ?? ""
        }

        func close() async {
            channel.outbound.finish()
            try? await channel.channel.close()
        }

        /// Sends `text`, then reads until the server has sent `until` or closed; nil when the
        /// server did neither within 30 s (the guard failed).
        func exchange(_ text: String, until marker: String? = nil) async throws -> String? {
            try await channel.executeThenClose { inbound, outbound in
                // On a loaded machine the server may have closed already: nothing was answered.
                do { try await outbound.write(ByteBuffer(string: text)) } catch ChannelError.ioOnClosedChannel {
                    return ""
                }
                return try await withThrowingTaskGroup(of: String?.self) { group in
                    group.addTask {
                        var received = ""
                        for try await chunk in inbound {
                            received += String(buffer: chunk)
                            if let marker, received.contains(marker) { return received }
                        }
                        return received
                    }
                    group.addTask {
                        try await Task.sleep(for: .seconds(30))
                        return nil
                    }
                    defer { group.cancelAll() }
                    return try await group.next() ?? nil
                }
            }
        }
    }

    static let health = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    @Test func halfARequestHeadIsClosedAfterTheHeaderTimeout() async throws {
        try await Self.withGuardedServer { port in
            let connection = try await RawConnection.open(port)
            let received = try await connection.exchange("GET /health HTTP/1.1\r\nHo")
            #expect(received == "", "the server closed the connection without answering")
        }
    }

    @Test func aBodyArrivingBelowTheFloorIsClosed() async throws {
        try await Self.withGuardedServer { port in
            let connection = try await RawConnection.open(port)
            let head =
                "POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: 100000\r\n\r\n{\"email\""
            let received = try await connection.exchange(head)
            #expect(received != nil, "the server closed the trickling body")
            #expect(received?.contains("200 OK") != true)
        }
    }

    @Test func oneAddressOverItsShareIsAnswered503WithRetryAfterAndServedOnceOneCloses() async throws {
        // Time enough for a loaded machine to send each request: this test is about the cap.
        try await Self.withGuardedServer(headerTimeout: .seconds(60)) { port in
            // Connections, each answered once and kept alive, until one is refused: at most
            // three (the test client may hold one of them).
            var held: [RawConnection] = []
            var refused: String?
            for _ in 0..<4 {
                let connection = try await RawConnection.open(port)
                let first = try await connection.first(Self.health)
                if first.hasPrefix("HTTP/1.1 200") {
                    held.append(connection)
                } else {
                    refused = first
                    await connection.close()
                    break
                }
            }
            #expect((2...3).contains(held.count), "\(held.count) connections served before the refusal")
            #expect(refused?.hasPrefix("HTTP/1.1 503") == true, "\(refused ?? "no refusal")")
            #expect(refused?.lowercased().contains("retry-after: 1") == true)
            // And again while they stay open.
            let again = try await RawConnection.open(port).exchange(Self.health)
            #expect(again?.hasPrefix("HTTP/1.1 503") == true, "\(again ?? "no answer")")
            // One closes: once the server has seen it go (asynchronously), the next is served.
            await held[0].close()
            var served: String?
            for _ in 0..<200 {
                served = try await RawConnection.open(port).exchange(Self.health, until: "\r\n\r\n")
                if served?.hasPrefix("HTTP/1.1 503") != true { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(served?.hasPrefix("HTTP/1.1 200") == true, "\(served ?? "no answer")")
            for connection in held.dropFirst() { await connection.close() }
        }
    }

    @Test func aKeptAliveConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await Self.withGuardedServer(headerTimeout: .seconds(60), idleTimeout: .seconds(1)) { port in
            // Answered, then closed by the server (nil: still open after 30 s).
            let received = try await RawConnection.open(port).exchange(Self.health)
            #expect(received?.hasPrefix("HTTP/1.1 200") == true, "\(received ?? "still open")")
        }
    }

    /// The guard's one timer fires at the first idle deadline and finds it moved by the requests
    /// since: the connection, busy for longer than the idle timeout, stays open.
    @Test func requestsSpacedUnderTheIdleTimeoutKeepTheConnectionOpen() async throws {
        try await Self.withGuardedServer(headerTimeout: .seconds(60), idleTimeout: .milliseconds(1_500)) { port in
            let connection = try await RawConnection.open(port)
            let received = try await connection.channel.executeThenClose { inbound, outbound in
                var iterator = inbound.makeAsyncIterator()
                var received = ""
                for index in 0..<7 {
                    // The client's pace, not an ordering of events: well under the idle timeout.
                    if index > 0 { try await Task.sleep(for: .milliseconds(300)) }
                    try await outbound.write(ByteBuffer(string: Self.health))
                    while Self.answers(in: received) <= index, let chunk = try await iterator.next() {
                        received += String(buffer: chunk)
                    }
                }
                return received
            }
            #expect(Self.answers(in: received) == 7, "\(received)")
        }
    }

    static func answers(in received: String) -> Int {
        received.components(separatedBy: "HTTP/1.1 200").count - 1
    }
}
