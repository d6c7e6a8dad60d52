import BenchSupport
import Foundation
import Logging
import TandemBasics
import WSClient

/// The floor under any submit, without Tandem's node client: request frames written and answers
/// read on one swift-websocket connection (the library `WebSocketClientTransport` wraps), one
/// task, no actor, no id table, no timer, nothing decoded. What it costs this process per round
/// trip is the least a message pays to reach a node over this WebSocket client and hear back.
enum MinimalRoundTrip {
    /// This process's CPU per round trip of a `ping` request over `count` round trips, after
    /// `warmUp` unmeasured ones, on a fresh connection to `url`.
    static func cpuPerRoundTrip(url: URL, count: Int, warmUp: Int = 20) async throws -> Double {
        let measured = Locked<Double?>(nil)
        var logger = Logger(label: "bench.minimal-websocket")
        logger.logLevel = .critical
        _ = try await WebSocketClient.connect(
            url: url.absoluteString, configuration: WebSocketClientConfiguration(), logger: logger
        ) { inbound, outbound, _ in
            var answers = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
            func roundTrip(_ id: Int) async throws {
                try await outbound.write(.text(#"{"id":\#(id),"method":"ping","params":{}}"#))
                guard case .text(let text) = try await answers.next(), text.contains(#""id":\#(id)"#) else {
                    throw CLIError("minimal round trip: no answer to ping \(id)")
                }
            }
            for id in 0..<warmUp { try await roundTrip(id) }
            let start = WalletNodeBenchmarks.ownCPUSeconds()
            for id in warmUp..<(warmUp + count) { try await roundTrip(id) }
            measured.withLock { $0 = (WalletNodeBenchmarks.ownCPUSeconds() - start) / Double(count) }
            try await outbound.close(.normalClosure, reason: nil)
        }
        guard let cpu = measured.withLock({ $0 }) else {
            throw CLIError("minimal round trip: the connection ended early")
        }
        return cpu
    }
}
