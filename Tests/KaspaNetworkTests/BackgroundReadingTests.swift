import Foundation
import KaspaNode
import KaspaRPC
import NIOCore
import NIOPosix
import TandemNIOTransport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Where a background consumer's node traffic runs (issue 25: reads during ingest). The server's
/// chain ingest reads multi-megabyte pages; the transport's own receiving work and the client's
/// reader must run on the executor the ingest gives, and its sockets on a lower-priority event
/// loop, not on what serves requests. Over real loopback WebSockets to the simulated node.
@Suite("Node traffic of a background consumer (issue 25)")
struct BackgroundReadingTests {
    @Test("the NIO transport receives on the executor it is given")
    func transportReceivesOnExecutor() async throws {
        try await SimulatedNetwork.with { network in
            let url = try #require(network.urls.first)
            let executor = CountingExecutor()
            let socket = try await WebSocketClientTransport().connect(
                to: url, timeout: .seconds(30), receivingOn: .executor(executor))
            let opened = executor.jobsRun
            try await socket.send(try RPCFrame.request(id: 1, method: .ping, params: RPCEmpty()))
            var answer: String?
            for try await text in socket.messages {
                answer = text
                break
            }
            let frame = try #require(answer)
            guard case .response(let id, _, _) = try RPCFrame.inbound(Data(frame.utf8)) else {
                Issue.record("not an answer: \(frame)")
                return
            }
            #expect(id == 1)
            // Receiving the answer ran on the executor, after the connection was open.
            #expect(executor.jobsRun > opened)
            await socket.close()
        }
    }

    @Test("the NIO transport's sockets run on the event loops it is given")
    func transportUsesItsEventLoops() async throws {
        try await SimulatedNetwork.with { network in
            let url = try #require(network.urls.first)
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
            try await group.shutdownGracefully()
            // A transport on loops that are shut down cannot open anything (it fails, or times
            // out after 5 s); on NIO's shared loops it would open at once.
            await #expect(throws: (any Error).self) {
                _ = try await WebSocketClientTransport(eventLoopGroup: group).connect(to: url, timeout: .seconds(5))
            }
            let socket = try await WebSocketClientTransport().connect(to: url, timeout: .seconds(30))
            await socket.close()
        }
    }

    @Test("a client with a reading executor and the background event loop answers calls as any other")
    func clientOnBackgroundLoop() async throws {
        try await SimulatedNetwork.with { network in
            let executor = CountingExecutor()
            let client = KaspaNodeClient(
                configuration: network.configuration(),
                transport: WebSocketClientTransport(eventLoopGroup: BackgroundEventLoop.group),
                reading: .executor(executor))
            let snapshot = try await client.connect()
            #expect(snapshot.info.networkId == .testnet10)
            let dag = try await client.call(.getBlockDagInfo, as: RPCBlockDAGInfo.self)
            #expect(dag.virtualDaaScore >= snapshot.info.virtualDaaScore)
            #expect(executor.jobsRun > 0)
            await client.disconnect()
        }
    }

    #if canImport(Glibc)
        @Test("the background event loop's thread runs at nice 10")
        func backgroundLoopNiceness() async throws {
            let niceness = try await BackgroundEventLoop.group.next().submit {
                getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
            }.get()
            // 10, or more when the test process itself runs above it.
            #expect(niceness >= 10)
        }
    #endif
}
