import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import TandemAPI
import TandemServer
import TestSupport
import Testing

extension StoreContractTests {
    /// Two `tandem serve` instances on one PostgreSQL (issue 11 item 3): a row submitted to
    /// one reaches a stream opened on the other, through LISTEN/NOTIFY.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["POSTGRES_URL"] != nil, "PostgreSQL only: set POSTGRES_URL"))
    func aRowSubmittedToOneInstanceReachesAStreamOnAnother() async throws {
        try await Self.withStores(.postgres, count: 2) { stores in
            let logger = Logger.quiet("two-instances")
            let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
            let directory = try TemporaryDirectory()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for store in stores {
                    let configuration = ServerConfiguration(
                        host: "127.0.0.1", port: 0, dataDirectory: directory.url, secret: TestServer.secret,
                        rateLimiting: false)
                    let app = try buildApplication(configuration: configuration, store: store, logger: logger) { port in
                        portSink.yield(port)
                    }
                    group.addTask { try await app.runService(gracefulShutdownSignals: []) }
                }
                var iterator = ports.makeAsyncIterator()
                let first = try #require(await iterator.next())
                let second = try #require(await iterator.next())
                try await withDeadline(seconds: 30) {
                    // Given a stream on the second instance
                    let bob = RelayFixtures.address(RelayFixtures.bob).description
                    var stream = try await SSEStream.open("http://127.0.0.1:\(second)/kasia/stream?address=\(bob)")
                    #expect(try await stream.next()?.comment == "connected")
                    // When a handshake to bob is submitted to the first
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(first)\(APIPath.kasiaTransactions)")
                    request.method = .POST
                    request.headers.add(name: "Content-Type", value: "application/json")
                    let submission = RelayFixtures.signed(
                        RelayFixtures.handshake(), to: RelayFixtures.bob, amount: 20_000_000)
                    request.body = .bytes(ByteBuffer(string: RelayFixtures.json(submission)))
                    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
                    #expect(response.status == .ok)
                    let receipt = try JSONDecoder().decode(
                        RelayReceipt.self, from: Data(try await response.body.collect(upTo: 4096).readableBytesView))
                    // Then the second instance streams it
                    let event = try #require(try await stream.nextEvent())
                    #expect(event.event == "handshake")
                    #expect(event.id == String(receipt.blockTime))
                }
                group.cancelAll()
            }
            directory.remove()
        }
    }
}
