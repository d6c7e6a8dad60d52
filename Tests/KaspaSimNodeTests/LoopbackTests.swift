import Foundation
import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import Logging
import TandemBasics
import Testing
import WSClient

/// The server over a live loopback WebSocket (swift-websocket's client): frames as kaspa-node.md
/// §2 writes them, ids echoed exactly, malformed frames survived, notifications on acceptance,
/// several ports on one chain, and the drop switch.
@Suite struct LoopbackTests {
    static let maxFrame = 8 << 20

    static var logger: Logger {
        var logger = Logger(label: "simnode-test")
        logger.logLevel = .critical
        return logger
    }

    /// Opens a WebSocket to `url` and runs `body` with a frame reader and the writer.
    static func session(
        _ url: String, _ body: @escaping @Sendable (FrameReader, WebSocketOutboundWriter) async throws -> Void
    ) async throws {
        try await WebSocketClient.connect(
            url: url, configuration: .init(maxFrameSize: maxFrame), logger: logger
        ) { inbound, outbound, _ in
            try await body(FrameReader(inbound.messages(maxSize: maxFrame).makeAsyncIterator()), outbound)
        }
    }

    /// Reads text frames one at a time as JSON objects.
    final class FrameReader {
        private var iterator: WebSocketInboundMessageStream.AsyncIterator

        init(_ iterator: WebSocketInboundMessageStream.AsyncIterator) { self.iterator = iterator }

        /// The next frame's text; nil when the connection ended.
        func next() async throws -> String? {
            while let message = try await iterator.next() {
                if case .text(let text) = message { return text }
            }
            return nil
        }

        func nextObject() async throws -> [String: Any]? {
            guard let text = try await next() else { return nil }
            return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        }
    }

    @Test func echoesIDsAbove2To53ExactlyAndAnswersPing() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve(logger: Self.logger) { servers in
            try await Self.session(servers[0].url) { reader, writer in
                // 2^53 + 1 is where a double would round; 2^64 - 1 is the largest u64.
                for id in ["9007199254740993", "18446744073709551615"] {
                    try await writer.write(.text(#"{"id":\#(id),"method":"ping","params":{}}"#))
                    let text = try await reader.next() ?? ""
                    #expect(text.contains(#""id":\#(id)"#))
                    guard case .response(let echoed, "ping", _) = try RPCFrame.inbound(Data(text.utf8)) else {
                        Issue.record("not a ping answer: \(text)")
                        continue
                    }
                    #expect(String(echoed) == id)
                }
                try await writer.close(.normalClosure, reason: nil)
            }
        }
    }

    /// kaspa-node.md §11: a frame rusty-kaspa cannot route (not JSON, no id, no params, a string
    /// id, a method no node has) ends the connection unanswered; bad params are answered
    /// `request deserialization error` and the connection stays.
    @Test(arguments: [
        "{", "[]", "\u{0}", #"{"method":"ping","params":{}}"#, #"{"id":"x","method":"ping","params":{}}"#,
        #"{"id":3,"method":"ping"}"#, #"{"id":3,"method":"ping","params":null}"#,
        #"{"id":7,"method":"getNothing","params":{}}"#,
    ])
    func aFrameNoNodeRoutesClosesTheConnection(junk: String) async throws {
        let node = SimulatedKaspaNode()
        try await node.serve(logger: Self.logger) { servers in
            try await Self.session(servers[0].url) { reader, writer in
                try await writer.write(.text(junk))
                #expect(try await reader.next() == nil, "the node closed the connection unanswered")
            }
        }
    }

    @Test func badParamsAreADeserializationErrorAndTheConnectionStays() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve(logger: Self.logger) { servers in
            try await Self.session(servers[0].url) { reader, writer in
                try await writer.write(.text(#"{"id":8,"method":"getBalanceByAddress","params":{"address":5}}"#))
                let bad = try await reader.nextObject()
                #expect(bad?["id"] as? Int == 8)
                #expect((bad?["error"] as? [String: Any])?["message"] as? String == "request deserialization error")
                // A method of the real node's that the simulation leaves out is refused, not dropped.
                try await writer.write(.text(#"{"id":7,"method":"getCoinSupply","params":{}}"#))
                let unsimulated = try await reader.nextObject()
                #expect((unsimulated?["error"] as? [String: Any])?["message"] as? String == "Not implemented")
                try await writer.write(.text(#"{"id":9,"method":"getServerInfo","params":{}}"#))
                let info = try await reader.nextObject()
                let params = info?["params"] as? [String: Any]
                #expect(params?["networkId"] as? String == "testnet-10")
                #expect(params?["hasUtxoIndex"] as? Bool == true)
                // unsubscribe answers {}, subscribe the listener id.
                try await writer.write(.text(#"{"id":10,"method":"subscribe","params":{"VirtualDaaScoreChanged":{}}}"#))
                let subscribed = try await reader.nextObject()
                #expect((subscribed?["params"] as? [String: Any])?["id"] != nil)
                try await writer.write(
                    .text(#"{"id":11,"method":"unsubscribe","params":{"VirtualDaaScoreChanged":{}}}"#))
                var unsubscribed = try await reader.nextObject()
                // A score notification may come between; skip it.
                while unsubscribed?["id"] == nil { unsubscribed = try await reader.nextObject() }
                #expect(unsubscribed?["id"] as? Int == 11)
                #expect((unsubscribed?["params"] as? [String: Any])?.isEmpty == true)
                try await writer.close(.normalClosure, reason: nil)
            }
        }
    }

    @Test func refusesAnEmptyUtxosChangedSubscriptionAsSafeMode() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve(logger: Self.logger) { servers in
            try await Self.session(servers[0].url) { reader, writer in
                try await writer.write(
                    .text(#"{"id":1,"method":"subscribe","params":{"UtxosChanged":{"addresses":[]}}}"#))
                let answer = try await reader.nextObject()
                #expect(
                    (answer?["error"] as? [String: Any])?["message"] as? String
                        == "Method unavailable in safe mode. Run the node with --unsaferpc argument.")
                try await writer.close(.normalClosure, reason: nil)
            }
        }
    }

    @Test func notifiesSubscribersOnAcceptanceAcrossPorts() async throws {
        let node = SimulatedKaspaNode()
        let alice = try TestWallet(seed: 0x11)
        try await node.serve([.init(), .init()], logger: Self.logger) { servers in
            #expect(servers.count == 2 && servers[0].port != servers[1].port)
            try await Self.session(servers[1].url) { reader, writer in
                // Given subscriptions on the second port
                let subscribe = try RPCFrame.request(
                    id: 1, method: .subscribe, params: RPCSubscription.utxosChanged(addresses: [alice.address]))
                try await writer.write(.text(subscribe))
                #expect(try await reader.nextObject()?["params"] as? [String: Int] != nil)
                try await writer.write(
                    .text(#"{"id":2,"method":"subscribe","params":{"VirtualDaaScoreChanged":{}}}"#))
                _ = try await reader.next()

                // When a block funds Alice
                let id = try await node.fund(alice.address, amount: 5 * kas)

                // Then UtxosChanged and VirtualDaaScoreChanged arrive, in that order
                guard let first = try await reader.next() else {
                    Issue.record("the connection ended")
                    return
                }
                guard case .notification(.utxosChanged(let change)) = try RPCFrame.inbound(Data(first.utf8)) else {
                    Issue.record("not UtxosChanged: \(first)")
                    return
                }
                #expect(change.added.map(\.outpoint.transactionID) == [id])
                #expect(change.added.first?.address == alice.address)
                let second = try await reader.next().map { try RPCFrame.inbound(Data($0.utf8)) }
                let score = await node.virtualDaaScore
                #expect(second == .notification(.virtualDaaScoreChanged(.init(virtualDaaScore: score))))
                try await writer.close(.normalClosure, reason: nil)
            }
        }
    }

    @Test func stampsEveryFrameForAnObserverInTheOrderItHappened() async throws {
        final class Recorder: Sendable {
            let events = Locked<[NodeFrameEvent]>([])
        }
        let recorder = Recorder()
        let node = SimulatedKaspaNode()
        let alice = try TestWallet(seed: 0x11)
        let observer = NodeFrameObserver { event in recorder.events.withLock { $0.append(event) } }
        try await node.serve(logger: Self.logger, frameObserver: observer) { servers in
            try await Self.session(servers[0].url) { reader, writer in
                // Given a subscription and a ping, each answered
                let subscribe = try RPCFrame.request(
                    id: 1, method: .subscribe, params: RPCSubscription.utxosChanged(addresses: [alice.address]))
                try await writer.write(.text(subscribe))
                _ = try await reader.next()
                try await writer.write(.text(#"{"id":2,"method":"ping","params":{}}"#))
                _ = try await reader.next()

                // When a block funds Alice
                try await node.fund(alice.address, amount: 5 * kas)
                let notified = try await reader.next()

                // Then the observer saw each frame of the connection, stamped in order, the
                // notification as it was written
                let events = recorder.events.withLock { $0 }
                #expect(
                    events.map(\.kind).dropLast() == [
                        .request(method: "subscribe"), .answer(method: "subscribe"), .request(method: "ping"),
                        .answer(method: "ping"),
                    ])
                guard let last = events.last, case .notification(.utxosChanged(let change)) = last.kind else {
                    Issue.record("no UtxosChanged observed: \(events.map(\.kind))")
                    return
                }
                #expect(change.added.first?.address == alice.address)
                #expect(last.frame == notified)
                #expect(Set(events.map(\.connection)).count == 1)
                #expect(zip(events, events.dropFirst()).allSatisfy { $0.instant <= $1.instant })
                try await writer.close(.normalClosure, reason: nil)
            }
        }
    }

    @Test func servesOneChainOnEveryPort() async throws {
        let node = SimulatedKaspaNode()
        let alice = try TestWallet(seed: 0x11)
        try await node.fund(alice.address, amount: 3 * kas)
        try await node.serve([.init(), .init()], logger: Self.logger) { servers in
            for server in servers {
                try await Self.session(server.url) { reader, writer in
                    let request = try RPCFrame.request(
                        id: 3, method: .getBalanceByAddress, params: RPCAddress(address: alice.address))
                    try await writer.write(.text(request))
                    let text = try await reader.next() ?? ""
                    #expect(try RPCFrame.params(RPCBalance.self, from: Data(text.utf8)).balance == 3 * kas)
                    try await writer.close(.normalClosure, reason: nil)
                }
            }
        }
    }

    @Test func dropsEveryConnectionOnDemand() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve(logger: Self.logger) { servers in
            try await Self.session(servers[0].url) { reader, writer in
                try await writer.write(.text(#"{"id":1,"method":"ping","params":{}}"#))
                _ = try await reader.next()
                await servers[0].switches.dropConnections()
                let after = try? await reader.next()
                #expect(after == nil)
            }
        }
    }

    @Test func refusesConnectionsWhileSwitched() async throws {
        let node = SimulatedKaspaNode()
        try await node.serve(logger: Self.logger) { servers in
            await servers[0].switches.setRefusingConnections(true)
            await #expect(throws: (any Error).self) {
                try await Self.session(servers[0].url) { _, _ in Issue.record("connected to a refusing port") }
            }
            await servers[0].switches.setRefusingConnections(false)
            try await Self.session(servers[0].url) { reader, writer in
                try await writer.write(.text(#"{"id":1,"method":"ping","params":{}}"#))
                #expect(try await reader.nextObject()?["id"] as? Int == 1)
                try await writer.close(.normalClosure, reason: nil)
            }
        }
    }

    @Test func forcedRejectionsAnswerTheGivenTextThenStop() async throws {
        let node = SimulatedKaspaNode()
        let alice = try TestWallet(seed: 0x11)
        let funds = try await node.fund(alice.address, amount: 10 * kas)
        let entry = await node.read { $0.utxo(at: .init(transactionID: funds, index: 0)) }
        let pay = try alice.pay(entry.map { [$0] } ?? [], [(alice.address, 10 * kas - 162_400)])
        let frame = try RPCFrame.request(
            id: 5, method: .submitTransaction, params: RPCSubmitTransaction(transaction: pay))
        try await node.serve(logger: Self.logger) { servers in
            await servers[0].switches.rejectNextSubmits(1, message: "Rejected transaction: simulated")
            try await Self.session(servers[0].url) { reader, writer in
                try await writer.write(.text(frame))
                let refused = try await reader.next().map { try RPCFrame.inbound(Data($0.utf8)) }
                #expect(
                    refused == .error(id: 5, method: "submitTransaction", message: "Rejected transaction: simulated"))
                try await writer.write(.text(frame))
                let accepted = try await reader.next() ?? ""
                #expect(try RPCFrame.params(RPCTransactionID.self, from: Data(accepted.utf8)).transactionId == pay.id)
                try await writer.close(.normalClosure, reason: nil)
            }
        }
    }
}
