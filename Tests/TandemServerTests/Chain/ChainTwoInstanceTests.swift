import Foundation
import Hummingbird
import KaspaSimNode
import Logging
import TandemAPI
import TandemBasics
import TandemServer
import TestSupport
import Testing

extension StoreContractTests {
    /// Issue 25 item 4: two instances on one PostgreSQL, both with the node; whichever ingests,
    /// a chain row reaches the streams opened on both (LISTEN/NOTIFY), with its acceptance.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["POSTGRES_URL"] != nil, "PostgreSQL only: set POSTGRES_URL"))
    func aChainRowReachesStreamsOnEveryInstance() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve([SimulatedNodeConfiguration()]) { servers in
            let driver = try await TrafficDriver(node: node, senders: 2)
            try await Self.withStores(.postgres, count: 2) { stores in
                let logger = Logger.quiet("two-instances-chain")
                let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
                let directory = try TemporaryDirectory()
                defer { directory.remove() }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for store in stores {
                        let configuration = Self.chainServer(directory, nodes: [servers[0].url])
                        let app = try buildApplication(configuration: configuration, store: store, logger: logger) {
                            portSink.yield($0)
                        }
                        group.addTask { try await app.runService(gracefulShutdownSignals: []) }
                    }
                    var iterator = ports.makeAsyncIterator()
                    let first = try #require(await iterator.next())
                    let second = try #require(await iterator.next())
                    try await withDeadline(seconds: 30) {
                        // Given a stream of sender 0's rows on each instance
                        let sender = await driver.traffic.addresses[0].description
                        var streams = [
                            try await SSEStream.open("http://127.0.0.1:\(first)/kasia/stream?address=\(sender)"),
                            try await SSEStream.open("http://127.0.0.1:\(second)/kasia/stream?address=\(sender)"),
                        ]
                        for index in streams.indices {
                            #expect(try await streams[index].next()?.comment == "connected")
                        }
                        // When a block accepts sender 0's contextual message
                        try await driver.send(rounds: 1)
                        let tip = await node.read { $0.tip }
                        // Then both streams carry it, accepted by that block
                        for index in streams.indices {
                            let event = try #require(try await streams[index].nextEvent())
                            #expect(event.event == "contextual_message")
                            let data = try #require(event.data.map { Data($0.utf8) })
                            let row = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
                            #expect(row["sender"] as? String == sender)
                            #expect(row["accepting_block"] as? String == Hex.encode(tip.hash))
                        }
                    }
                    group.cancelAll()
                }
            }
        }
    }
}
