import Foundation
import KaspaNode
import KaspaRPC
import TestSupport
import Testing

/// The connection's bookkeeping over an in-memory WebSocket whose far end the test writes as a
/// node would: answers out of order, errors, notifications, silence and a closed socket. (The
/// same client against a simulated node over real loopback sockets is in KaspaSimNodeTests.)
@Suite("Node connection: ids, timeouts, notifications (issue 24 item 1)")
struct KaspaNodeConnectionTests {
    static let url = URL(string: "ws://in-memory.test") ?? URL(fileURLWithPath: "/")

    /// A connection whose calls wait as long as a test may run: these tests are about matching,
    /// errors and endings, and a call limit short enough to hit on a loaded two-core machine
    /// (every suite shares one process) would fail them for the wrong reason. The timeout test
    /// sets its own limit per call.
    static func open(_ socket: InMemorySocket) async throws -> KaspaNodeConnection {
        try await KaspaNodeConnection.open(url, transport: InMemoryTransport(socket), callTimeout: .seconds(600))
    }

    @Test("answers arriving in reverse order reach the calls that asked")
    func answersMatchedByID() async throws {
        let socket = InMemorySocket()
        let connection = try await Self.open(socket)
        // The second call starts once the first one's request is out, so each call's id is known.
        async let first = connection.call(.getBalanceByAddress, RPCEmpty(), as: RPCBalance.self)
        let firstID = try #require(try await socket.nextRequests(1).first).id
        async let second = connection.call(.getBalanceByAddress, RPCEmpty(), as: RPCBalance.self)
        let secondID = try #require(try await socket.nextRequests(1).first).id
        #expect(firstID != secondID)
        for id in [secondID, firstID] {
            socket.deliver(
                try RPCFrame.response(id: id, method: "getBalanceByAddress", params: RPCBalance(balance: id * 10)))
        }
        let balances = try await [first.balance, second.balance]
        #expect(balances == [firstID * 10, secondID * 10])
    }

    @Test("a connection opened with an executor reads its frames there")
    func readerExecutor() async throws {
        let executor = CountingExecutor()
        let socket = InMemorySocket()
        let connection = try await KaspaNodeConnection.open(
            Self.url, transport: InMemoryTransport(socket), callTimeout: .seconds(600), readingOn: .executor(executor))
        // The in-memory transport has no task of its own: every job counted is the reader's.
        let before = executor.jobsRun
        async let call = connection.call(.getBalanceByAddress, RPCEmpty(), as: RPCBalance.self)
        let (id, _) = try #require(try await socket.nextRequests(1).first)
        socket.deliver(try RPCFrame.response(id: id, method: "getBalanceByAddress", params: RPCBalance(balance: 7)))
        #expect(try await call.balance == 7)
        // The answer reached the call through the reader, which ran again there.
        #expect(executor.jobsRun > before)
        await connection.close()
    }

    @Test("an error frame keeps the node's text; a frame that is not JSON is counted and skipped")
    func refusals() async throws {
        let socket = InMemorySocket()
        let connection = try await Self.open(socket)
        async let call = connection.call(.getMempoolEntry, RPCEmpty(), as: RPCMempoolEntryResponse.self)
        let (id, _) = try #require(try await socket.nextRequests(1).first)
        socket.deliver("not json")
        socket.deliver(try RPCFrame.error(id: id, method: "getMempoolEntry", message: "Transaction ab not found"))
        do {
            _ = try await call
            Issue.record("the refusal was not thrown")
        } catch {
            #expect(
                error as? KaspaNodeError
                    == .refused(
                        node: Self.url.absoluteString, method: "getMempoolEntry", message: "Transaction ab not found"))
        }
        #expect(await connection.malformedFrames == 1)
    }

    @Test("a node that never answers fails the call after its limit; the connection stays usable")
    func timeout() async throws {
        let socket = InMemorySocket()
        let connection = try await Self.open(socket)
        await #expect(throws: KaspaNodeError.timeout(node: Self.url.absoluteString, method: "ping", seconds: 0.05)) {
            _ = try await connection.call(.ping, as: RPCEmpty.self, timeout: .milliseconds(50))
        }
        async let next = connection.call(.ping, as: RPCEmpty.self)
        let requests = try await socket.nextRequests(2)
        socket.deliver(try RPCFrame.response(id: requests[1].id, method: "ping", params: RPCEmpty()))
        _ = try await next
    }

    @Test("a short limit behind a long one ends at its own time; the long call and a cancelled one end as theirs")
    func limitsAndCancellation() async throws {
        let socket = InMemorySocket()
        let connection = try await Self.open(socket)
        async let long = connection.call(.getServerInfo, as: RPCServerInfo.self, timeout: .seconds(300))
        let (longID, _) = try #require(try await socket.nextRequests(1).first)
        await #expect(throws: KaspaNodeError.timeout(node: Self.url.absoluteString, method: "ping", seconds: 0.05)) {
            _ = try await connection.call(.ping, as: RPCEmpty.self, timeout: .milliseconds(50))
        }
        _ = try await socket.nextRequests(1)
        let info = RPCServerInfo(
            serverVersion: "1.0.0", networkId: .testnet10, hasUtxoIndex: true, isSynced: true, virtualDaaScore: 7)
        socket.deliver(try RPCFrame.response(id: longID, method: "getServerInfo", params: info))
        #expect(try await long.virtualDaaScore == 7)

        let cancelled = Task { try await connection.call(.ping, as: RPCEmpty.self) }
        _ = try await socket.nextRequests(1)
        cancelled.cancel()
        await #expect(throws: KaspaNodeError.cancelled) { _ = try await cancelled.value }
        #expect(await !connection.hasCallsInFlight)
    }

    @Test("a closed socket fails every waiting call and ends the notifications")
    func disconnect() async throws {
        let socket = InMemorySocket()
        let connection = try await Self.open(socket)
        try await Self.subscribeToDaaScore(connection, socket)
        async let call = connection.call(.getServerInfo, as: RPCServerInfo.self)
        _ = try await socket.nextRequests(1)
        socket.deliver(try RPCFrame.notification(.virtualDaaScoreChanged(.init(virtualDaaScore: 9))))
        socket.finish()
        do {
            _ = try await call
            Issue.record("the call did not fail")
        } catch {
            guard case .disconnected? = error as? KaspaNodeError else {
                Issue.record("unexpected \(error)")
                return
            }
        }
        var received: [RPCNotification] = []
        for await notification in connection.notifications { received.append(notification) }
        #expect(received == [.virtualDaaScoreChanged(.init(virtualDaaScore: 9))])
        await #expect(throws: KaspaNodeError.self) { _ = try await connection.call(.ping, as: RPCEmpty.self) }
    }
}

extension KaspaNodeConnectionTests {
    /// Subscribes `connection` to VirtualDaaScoreChanged, answering as a node would.
    static func subscribeToDaaScore(_ connection: KaspaNodeConnection, _ socket: InMemorySocket) async throws {
        async let subscribed = connection.call(
            .subscribe, RPCSubscription.virtualDaaScoreChanged, as: RPCListenerID.self)
        let (id, _) = try #require(try await socket.nextRequests(1).first)
        socket.deliver(try RPCFrame.response(id: id, method: "subscribe", params: RPCListenerID(id: 1)))
        _ = try await subscribed
    }

    /// Pings through `socket`: when it returns, the reader has handled every frame delivered before.
    static func drain(_ connection: KaspaNodeConnection, _ socket: InMemorySocket) async throws {
        async let ping = connection.call(.ping, as: RPCEmpty.self)
        let (id, _) = try #require(try await socket.nextRequests(1).first)
        socket.deliver(try RPCFrame.response(id: id, method: "ping", params: RPCEmpty()))
        _ = try await ping
    }

    static func daaScore(_ score: Int) throws -> String {
        try RPCFrame.notification(.virtualDaaScoreChanged(.init(virtualDaaScore: UInt64(score))))
    }

    @Test("notifications nobody on the connection subscribed to are dropped as they come (issue 50 item 2)")
    func unaskedNotificationsDropped() async throws {
        let socket = InMemorySocket()
        let connection = try await Self.open(socket)
        for score in 1...5_000 { socket.deliver(try Self.daaScore(score)) }
        socket.deliver(#"{"method":"blockAddedNotification","params":{"BlockAdded":{"block":{}}}}"#)
        try await Self.drain(connection, socket)
        #expect(await connection.unaskedNotifications == 5_001)
        #expect(await connection.droppedNotifications == 0)
        await connection.close()
        var kept = 0
        for await _ in connection.notifications { kept += 1 }
        #expect(kept == 0)
    }

    @Test("a reader behind a flood keeps only the newest notifications, and learns that some were dropped")
    func floodKeepsNewest() async throws {
        let socket = InMemorySocket()
        let connection = try await KaspaNodeConnection.open(
            Self.url, transport: InMemoryTransport(socket), callTimeout: .seconds(600), notificationCapacity: 8)
        try await Self.subscribeToDaaScore(connection, socket)
        for score in 1...1_000 { socket.deliver(try Self.daaScore(score)) }
        try await Self.drain(connection, socket)
        #expect(await connection.droppedNotifications == 992)
        #expect(await connection.takeDroppedNotifications())
        #expect(await !connection.takeDroppedNotifications())
        await connection.close()
        var kept: [UInt64] = []
        for await case .virtualDaaScoreChanged(let tick) in connection.notifications {
            kept.append(tick.virtualDaaScore)
        }
        #expect(kept == Array(993...1_000))
    }
}

/// An in-memory WebSocket: what the client sends is read by the test, what the test delivers is
/// what the client receives.
final class InMemorySocket: WebSocketConnection {
    let messages: AsyncThrowingStream<String, any Error>
    private let inbound: AsyncThrowingStream<String, any Error>.Continuation
    private let sent: AsyncStream<String>
    private let sentSink: AsyncStream<String>.Continuation

    init() {
        (messages, inbound) = AsyncThrowingStream.makeStream(of: String.self)
        (sent, sentSink) = AsyncStream.makeStream(of: String.self)
    }

    func send(_ text: String) async throws { sentSink.yield(text) }
    func close() async { inbound.finish() }
    func deliver(_ text: String) { inbound.yield(text) }
    func finish() { inbound.finish() }

    /// The next `count` requests the client sent: id and method.
    func nextRequests(_ count: Int) async throws -> [(id: UInt64, method: String)] {
        var requests: [(id: UInt64, method: String)] = []
        for await text in sent {
            let head = try RPCFrame.requestHead(Data(text.utf8))
            requests.append((head.id, head.method))
            if requests.count == count { break }
        }
        return requests
    }
}

struct InMemoryTransport: WebSocketTransport {
    let socket: InMemorySocket
    init(_ socket: InMemorySocket) { self.socket = socket }
    func connect(to url: URL, timeout: Duration) async throws -> any WebSocketConnection { socket }
}
