import ArgumentParser
import Foundation
import KaspaCrypto
import KaspaRPC
import KaspaSimNode
import Logging
import ServiceLifecycle

/// `tandem-simnode`: a simulated rusty-kaspa node (kaspa-node.md §10) for the SDK check in CI
/// and the CLI tests. One chain, served on every `--port`; one JSON line on stdout once all
/// listen; runs until SIGTERM or SIGINT. Never shipped.
@main
struct SimNodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tandem-simnode",
        abstract: "Serve a simulated Kaspa node (wRPC JSON over WebSocket) for tests.",
        discussion: """
            Prints {"ports":[…],"network":"…"} on one line when listening. Control API on every port:
            POST /sim/fund {"address","amount","coinbase"?}, POST /sim/mine {"blocks"?},
            POST /sim/reorg {"depth"}, POST /sim/switch {"port"?, "rejectNext"?: {"count","message"},
            "drop"?, "stall"?, "networkId"?, "synced"?, "utxoIndex"?, "refuse"?, "mempoolFull"?},
            GET /sim/state.
            kasia-indexer routes on every port, computed from the chain (point --indexer at
            http://127.0.0.1:PORT): GET /handshakes/by-sender|by-receiver?address=,
            /contextual-messages/by-sender?address=&alias=, /payments/by-sender|by-receiver?address=,
            /self-stash/by-owner?owner=&scope=, /metrics; limit (10, at most 50), block_time (inclusive).
            """)

    @Option(help: "The network id: mainnet, testnet-10, testnet-11, simnet, devnet.")
    var network = "testnet-10"

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(name: .customLong("port"), help: "A port to serve the chain on (repeatable; 0 picks a free one).")
    var ports: [Int] = []

    @Option(name: .customLong("block-interval-ms"), help: "Mine a block this often (default: only on /sim/mine).")
    var blockIntervalMilliseconds: Int?

    @Option(name: .customLong("fund"), help: "ADDRESS=SOMPI: a UTXO to mint before serving (repeatable).")
    var funds: [String] = []

    @Option(
        name: .customLong("feerate"),
        help: "Answer getFeeEstimate with this many sompi per gram in every bucket (a greedy node, issue 50).")
    var feerate: Double?

    @Flag(help: "Log connections and requests to stderr.")
    var verbose = false

    func validate() throws {
        guard KaspaNetworkID(network) != nil else { throw ValidationError("unknown network id '\(network)'") }
        if let bad = ports.first(where: { !(0...65535).contains($0) }) {
            throw ValidationError("port \(bad) is not 0 to 65535")
        }
        if let interval = blockIntervalMilliseconds, interval < 1 {
            throw ValidationError("--block-interval-ms must be at least 1")
        }
        if let feerate, !(feerate.isFinite && feerate > 0) {
            throw ValidationError("--feerate must be a number above 0")
        }
        _ = try parsedFunds()
    }

    func run() async throws {
        guard let networkID = KaspaNetworkID(network) else { throw ValidationError("unknown network id '\(network)'") }
        let node = SimulatedKaspaNode(chain: SimulatedChain(network: networkID))
        for (address, amount) in try parsedFunds() {
            do { try await node.fund(address, amount: amount) } catch {
                throw ValidationError(String(describing: error))
            }
        }
        var logger = Logger(label: "tandem-simnode")
        logger.logLevel = verbose ? .debug : .warning
        let estimate = feerate.map { rate in
            RPCFeeEstimate(
                priorityBucket: .init(feerate: rate, estimatedSeconds: 1),
                normalBuckets: [.init(feerate: rate, estimatedSeconds: 10)],
                lowBuckets: [.init(feerate: rate, estimatedSeconds: 60)])
        }
        let configurations = (ports.isEmpty ? [0] : ports).map {
            SimulatedNodeConfiguration(
                host: host, port: $0, feeEstimate: estimate ?? SimulatedNodeConfiguration.defaultFeeEstimate)
        }
        let listening = Listening(expected: configurations.count, network: networkID.description)
        var services: [any Service] = configurations.indices.map { index in
            SimulatedNodeServer(
                node: node, configuration: configurations[index], logger: logger,
                onRunning: { await listening.listens(index: index, port: $0) })
        }
        if let interval = blockIntervalMilliseconds {
            services.append(BlockProducer(node: node, interval: .milliseconds(interval)))
        }
        let group = ServiceGroup(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        try await group.run()
    }

    /// `ADDRESS=SOMPI` pairs.
    private func parsedFunds() throws -> [(KaspaAddress, UInt64)] {
        try funds.map { text in
            let parts = text.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let amount = UInt64(parts[1]), amount > 0 else {
                throw ValidationError("--fund takes ADDRESS=SOMPI (a positive amount), not '\(text)'")
            }
            do { return (try KaspaAddress(parts[0]), amount) } catch {
                throw ValidationError("--fund: \(error)")
            }
        }
    }
}

/// Prints the ports line once every server listens.
actor Listening {
    private let expected: Int
    private let network: String
    private var ports: [Int: Int] = [:]

    init(expected: Int, network: String) {
        self.expected = expected
        self.network = network
    }

    func listens(index: Int, port: Int) {
        ports[index] = port
        guard ports.count == expected else { return }
        struct Line: Encodable {
            var ports: [Int]
            var network: String
        }
        let line = Line(ports: (0..<expected).map { ports[$0] ?? 0 }, network: network)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let text = (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
