import BenchSupport
import Foundation
import KasiaProtocol
import KaspaCrypto
import KaspaNode
import KaspaRPC
import KaspaSimNode
import KaspaTransaction
import Logging
import MicroBenchmarks
import ServiceLifecycle
import TandemAccounts
import TandemBasics
import TandemNIOTransport
import TandemServer
import TandemServerStore
import TandemWallet

/// `tandem-bench chain-index` (issue 25 "Figures"): how fast `tandem serve --kaspa-node`
/// catches up a chain of Kasia traffic, against the chain's own ceiling for that traffic, and
/// what the ingest does to the reads it serves meanwhile.
enum ChainIndexBenchmarks {
    struct Configuration {
        var transactions = 20_000
        var senders = 100
        /// Rounds per block: each round is one transaction per sender.
        var roundsPerBlock = 2
        var databaseURL: String?
        var reads = 400
        /// Reads per second on a fixed schedule (each read timed from its scheduled start, so a
        /// late one counts its wait); nil: back to back, each as soon as the last one answered.
        var readRate: Int?
        /// The node connection's sockets on NIO's shared loops instead of `BackgroundEventLoop`
        /// (what `tandem serve` uses): the A/B of session 25.
        var sharedEventLoops = false
        /// Rows per ingest commit, which the database-alone lane's commits follow too.
        var rowsPerCommit = KaspaIndexConfiguration.defaultRowsPerCommit
        /// The ingest's wait for the reads in flight before each commit (zero: none).
        var readYield: Duration = KaspaIndexConfiguration.defaultReadYield
        /// SQLite checkpoints in the commit that passes 1,000 WAL pages, as before issue 49 item
        /// 5, instead of beside the writer.
        var commitCheckpoints = false
        var liveBlocks = 20
        /// A `tandem-simnode` binary to run the node as its own process under SCHED_IDLE (standing for
        /// a node on another machine); nil: the node serves from this process.
        var simnode: String?
    }

    struct Report: Encodable {
        var backend: String
        /// `in-process`, or `process, SCHED_IDLE`.
        var node: String
        var transactions: Int
        var kasiaRows: Int
        var blocks: Int
        /// Catch-up of part A on an empty database, then of part B on A's.
        var ingest: [Ingest]
        /// The walk alone (node answers read and decoded, nothing stored), same chain, same run.
        var walkOnlyRowsPerSecond: Double
        var ceiling: Ceiling
        /// Reads per second on a schedule; nil: back to back.
        var readRate: Int?
        var readsIdle: Latency
        /// The same reads, still no ingest, beside a busy loop at the lowest priority there is
        /// (`chrt --idle 0 sh -c 'while :; do :; done'`): what any concurrent work costs them on
        /// this machine, whatever its priority.
        var readsBesideIdleLoop: Latency
        var readsDuringIngest: Latency
        /// A new block (one transaction per sender) from mined to stored, at the server's
        /// default tip poll (250 ms).
        var live: Latency
        /// The database's share alone: part B's rows written again, by the store the server
        /// uses, paced to part B's catch-up rate, with no node and no ingest, under the same reads.
        var databaseAlone: DatabaseAlone
    }

    /// What the database's own work does to the reads: the ingest's commits replayed as they
    /// reach the store (the same rows under new ids, in commits of the ingester's size), paced
    /// to the rate part B's catch-up reached, while a server without a node serves the reads.
    /// Reads during it ÷ reads idle in the same pass: what writing these rows through this store
    /// does to the reads with no ingest code running (a comparison, not a bound: the pattern of
    /// the writes is not the ingest's).
    struct DatabaseAlone: Encodable {
        /// Rows written again (part B's).
        var rows: Int
        /// The pace the writes were held to: part B's catch-up rate.
        var targetRowsPerSecond: Double
        /// Rows over the time from the first commit until the last was due and done.
        var rowsPerSecond: Double
        /// Reads with nothing being written, before the writes (this server's own idle pass).
        var readsIdle: Latency
        var readsDuring: Latency
    }

    struct Ingest: Encodable {
        var rows: Int
        var seconds: Double
        var rowsPerSecond: Double
        var ratioToCeiling: Double
    }

    /// 10 blocks/s × the contextual messages one block's compute-mass limit allows.
    struct Ceiling: Encodable {
        var messageComputeMass: UInt64
        var messageBytes: Int
        var perBlock: UInt64
        var perSecond: UInt64
    }

    struct Latency: Encodable {
        var count: Int
        var p50Milliseconds: Double
        var p99Milliseconds: Double
    }

    static let blockMassLimit: UInt64 = 500_000
    static let blocksPerSecond: UInt64 = 10

    /// The mass of a typical contextual message: one input, a change output, and a sealed
    /// 50-character text (what KaChat sends) under a 12-character alias, base64 as KaChat writes it.
    static func ceiling() throws -> Ceiling {
        let key = try PrivateKey(rawRepresentation: [UInt8](repeating: 7, count: 32))
        let builder = KaspaTransactionBuilder(key: key, network: .testnet)
        let sealed = try KasiaCipher.seal(String(repeating: "m", count: 50), to: builder.address)
        let payload = KasiaPayload.contextualMessage(
            alias: try Alias("0123456789ab"), sealed: sealed, encoding: .base64
        )
        .encoded(root: .ciphMsg)
        let coin = KaspaUtxoEntry(
            outpoint: KaspaOutpoint(transactionID: [UInt8](repeating: 1, count: 32), index: 0), amount: 100_000_000_000,
            scriptPublicKey: KaspaScriptPublicKey(address: builder.address))
        let transaction = try builder.sign(
            KaspaTransaction(
                inputs: [KaspaTransactionInput(spending: coin)],
                outputs: [
                    KaspaTransactionOutput(value: 99_000_000_000, scriptPublicKey: .init(address: builder.address))
                ],
                payload: payload))
        let mass = KaspaMass(of: transaction).computeMass
        let perBlock = blockMassLimit / mass
        return Ceiling(
            messageComputeMass: mass, messageBytes: payload.count, perBlock: perBlock,
            perSecond: perBlock * blocksPerSecond)
    }

    static func run(_ configuration: Configuration, progress: (String) -> Void) async throws -> Report {
        if let simnode = configuration.simnode {
            let process = try SimNodeProcess(executable: simnode, network: "testnet-10", priority: .idle)
            defer { process.stop() }
            return try await run(configuration, node: ProcessNode(process: process), progress: progress)
        }
        let node = SimulatedKaspaNode()
        return try await node.serve([SimulatedNodeConfiguration()]) { servers in
            guard let url = URL(string: servers[0].url) else { throw CLIError("the node's URL does not parse") }
            return try await run(configuration, node: InProcessNode(node: node, url: url), progress: progress)
        }
    }

    static func run(_ configuration: Configuration, node: some BenchNode, progress: (String) -> Void) async throws
        -> Report
    {
        let ceiling = try ceiling()
        let rounds = max(configuration.transactions / configuration.senders / 2, 1)
        progress("making part A: \(rounds * configuration.senders) transactions")
        var addresses = try await node.send(
            senders: configuration.senders, rounds: rounds, roundsPerBlock: configuration.roundsPerBlock)
        let store = try await Self.store(configuration)
        defer { store.close() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chain-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        var kaspa = KaspaIndexConfiguration(
            nodes: [node.url], network: .testnet10, transport: WebSocketClientTransport(),
            ingestTransport: configuration.sharedEventLoops
                ? nil : WebSocketClientTransport(eventLoopGroup: BackgroundEventLoop.group))
        kaspa.rowsPerCommit = configuration.rowsPerCommit
        kaspa.readYield = configuration.readYield
        let server = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory, secret: String(repeating: "s", count: 40),
            rateLimiting: false, kaspa: kaspa)
        progress("catching up part A")
        var ingests: [Ingest] = []
        var idle: [Double] = []
        var besideLoop: [Double] = []
        var rowsA = 0
        let queries = Self.queries(addresses, count: configuration.reads)
        try await Self.serving(server, store: store.store) { port in
            let seconds = try await Self.caughtUp(store.store, tip: try await node.tip())
            rowsA = try await Self.rows(store.store)
            ingests.append(Self.ingest(rows: rowsA, seconds: seconds, ceiling: ceiling))
            progress("idle reads")
            idle = try await Self.read(
                port: port, queries: queries, count: configuration.reads, rate: configuration.readRate)
            progress("idle reads beside a busy loop at SCHED_IDLE")
            let loop = try BusyLoop()
            defer { loop.stop() }
            besideLoop = try await Self.read(
                port: port, queries: queries, count: configuration.reads, rate: configuration.readRate)
        }
        progress("making part B")
        addresses = try await node.send(
            senders: configuration.senders, rounds: rounds, roundsPerBlock: configuration.roundsPerBlock)
        progress("catching up part B, reading meanwhile")
        var during: [Double] = []
        var live: [Double] = []
        var rows = rowsA
        try await Self.serving(server, store: store.store) { port in
            let done = StopFlag()
            async let reads = Self.read(
                port: port, queries: queries, count: nil, rate: configuration.readRate, while: { !done.isSet })
            let seconds = try await Self.caughtUp(store.store, tip: try await node.tip())
            done.set()
            during = try await reads
            rows = try await Self.rows(store.store)
            ingests.append(Self.ingest(rows: rows - rowsA, seconds: seconds, ceiling: ceiling))
            progress("live blocks")
            for _ in 0..<configuration.liveBlocks {
                _ = try await node.send(senders: configuration.senders, rounds: 1, roundsPerBlock: 1)
                live.append(try await Self.caughtUp(store.store, tip: try await node.tip()))
            }
            rows = try await Self.rows(store.store)
        }
        progress("the database alone: part B's rows again, with no node")
        var standalone = server
        standalone.kaspa = nil
        let alone = try await Self.databaseAlone(
            standalone, store: store.store, queries: queries, configuration: configuration,
            skipping: rowsA, rows: ingests[1].rows, rate: ingests[1].rowsPerSecond)
        progress("walking the chain without storing")
        let walk = try await Self.walkOnly(url: node.url)
        return Report(
            backend: configuration.databaseURL == nil ? "sqlite" : "postgres",
            node: configuration.simnode == nil ? "in-process" : "process, SCHED_IDLE",
            transactions: (2 * rounds + configuration.liveBlocks) * configuration.senders, kasiaRows: rows,
            blocks: try await node.blocks(),
            ingest: ingests, walkOnlyRowsPerSecond: Double(rows) / walk, ceiling: ceiling,
            readRate: configuration.readRate, readsIdle: Self.latency(idle),
            readsBesideIdleLoop: Self.latency(besideLoop), readsDuringIngest: Self.latency(during),
            live: Self.latency(live), databaseAlone: alone)
    }

    /// ``DatabaseAlone``: part B's rows (the `rows` stored after the first `skipping`, in position
    /// order) read back from the store and given new ids (their text reversed), grouped by
    /// accepting block into commits closed at the first block boundary past ``rowsPerCommit`` rows
    /// (as the ingester closes them), each moving the cursor on; applied at `rate` rows/s while the reads
    /// run. The pacing is even, one commit at a time, where the ingest writes a node page's
    /// commits back to back: the same rows at the same rate, not the same bursts.
    static func databaseAlone(
        _ server: ServerConfiguration, store: any ServerStore, queries: [String], configuration: Configuration,
        skipping stored: Int, rows count: Int, rate: Double
    ) async throws -> DatabaseAlone {
        guard rate.isFinite, rate > 0, count > 0 else { throw CLIError("database alone: part B stored no rows") }
        // Positions follow commit order: part A's rows, then B's, then the live blocks'.
        var records: [KasiaRecord] = []
        var after: Int64 = 0
        while records.count < stored + count {
            let page = try await store.kasiaRecords(
                after: after, watching: nil, limit: min(5_000, stored + count - records.count))
            guard let last = page.last else { break }
            records += page
            after = last.position
        }
        var commits: [[KasiaChainRow]] = [[]]
        var block: String?
        for record in records.dropFirst(stored).prefix(count) {
            guard let acceptance = record.acceptance else { continue }
            if acceptance.block != block, (commits.last?.count ?? 0) >= configuration.rowsPerCommit {
                commits.append([])
            }
            block = acceptance.block
            var draft = record.draft
            draft.txID = String(draft.txID.reversed())
            commits[commits.count - 1].append(
                KasiaChainRow(draft: draft, blockTime: record.blockTime, acceptance: acceptance))
        }
        guard var cursor = try await store.kasiaChainCursor() else { throw CLIError("database alone: no cursor") }
        var idle: [Double] = []
        var during: [Double] = []
        var seconds = 0.0
        try await Self.serving(server, store: store) { port in
            idle = try await Self.read(
                port: port, queries: queries, count: configuration.reads, rate: configuration.readRate)
            let done = StopFlag()
            async let reads = Self.read(
                port: port, queries: queries, count: nil, rate: configuration.readRate, while: { !done.isSet })
            let clock = ContinuousClock()
            let start = clock.now
            var written = 0
            for (index, rows) in commits.enumerated() {
                let due = start + .nanoseconds(Int64(Double(written) / rate * 1e9))
                if due > clock.now { try await Task.sleep(until: due, clock: clock) }
                let next = KasiaChainCursor(
                    block: String(format: "%064x", index + 1), daaScore: cursor.daaScore + 1,
                    blockTime: cursor.blockTime, network: cursor.network)
                _ = try await store.applyKasiaChainPage(
                    KasiaChainPage(from: cursor, removedBlocks: [], rows: rows, to: next), now: SystemClock().now)
                cursor = next
                written += rows.count
            }
            // The pace holds to the end: the time runs until the last rows were due, too.
            let end = start + .nanoseconds(Int64(Double(written) / rate * 1e9))
            if end > clock.now { try await Task.sleep(until: end, clock: clock) }
            seconds = (clock.now - start).nanoseconds / 1e9
            done.set()
            during = try await reads
        }
        let written = commits.reduce(0) { $0 + $1.count }
        return DatabaseAlone(
            rows: written, targetRowsPerSecond: rate, rowsPerSecond: Double(written) / seconds,
            readsIdle: Self.latency(idle),
            readsDuring: Self.latency(during))
    }

    /// Rows the index holds.
    static func rows(_ store: any ServerStore) async throws -> Int {
        Int(try await store.kasiaCounts().byKind.values.reduce(0, +))
    }

    static func ingest(rows: Int, seconds: Double, ceiling: Ceiling) -> Ingest {
        let rate = Double(rows) / seconds
        return Ingest(
            rows: rows, seconds: seconds, rowsPerSecond: rate, ratioToCeiling: rate / Double(ceiling.perSecond))
    }

    /// Nearest-rank percentiles, as the other node benches compute them.
    static func latency(_ seconds: [Double]) -> Latency {
        let ranks = ChatNodeReport.Percentiles(seconds)
        return Latency(count: seconds.count, p50Milliseconds: ranks.p50, p99Milliseconds: ranks.p99)
    }

    /// Contextual-message pages of the senders' aliases, in a fixed order: `count` of them.
    static func queries(_ addresses: [String], count: Int) -> [String] {
        (0..<count).map { index in
            let sender = (index * 7) % addresses.count
            let alias = SimulatedKasiaTraffic.aliases(sender: sender)[index % 3]
            return
                "/kasia/contextual-messages/by-sender?address=\(addresses[sender])&alias=\(Hex.encode(Array(alias.utf8)))&limit=50"
        }
    }

    /// Reads `queries` one after another, round and round, `count` reads, or while `more()`
    /// holds when `count` is nil (only reads that start while it holds are kept); answers each
    /// read's seconds. With a `rate`, read i is due at i ÷ rate seconds after the first, waits
    /// until then if early, and is timed from when it was due.
    static func read(
        port: Int, queries: [String], count: Int?, rate: Int? = nil, while more: @Sendable () -> Bool = { true }
    ) async throws -> [Double] {
        let transport = HTTPClientTransport()
        var times: [Double] = []
        let clock = ContinuousClock()
        let first = clock.now
        var index = 0
        while count.map({ index < $0 }) ?? more() {
            guard let url = URL(string: "http://127.0.0.1:\(port)\(queries[index % queries.count])") else { break }
            var start = clock.now
            if let rate {
                let due = first + .nanoseconds(Int64(index) * 1_000_000_000 / Int64(rate))
                if due > start { try await Task.sleep(until: due, clock: clock) }
                start = due
            }
            let answer = try await transport.send(TransportRequest(method: "GET", url: url))
            let elapsed = (clock.now - start).nanoseconds / 1e9
            guard answer.status == 200 else { throw CLIError("read answered \(answer.status)") }
            index += 1
            if count != nil || more() { times.append(elapsed) }
        }
        return times
    }

    /// Seconds until the store's cursor is `tip`, polled every 2 ms.
    static func caughtUp(_ store: any ServerStore, tip: String) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        while try await store.kasiaChainCursor()?.block != tip {
            try await Task.sleep(for: .milliseconds(2))
            if clock.now - start > .seconds(600) { throw CLIError("the index did not reach the tip in 10 minutes") }
        }
        return (clock.now - start).nanoseconds / 1e9
    }

    /// Runs the server on `store` while `body` runs with its port.
    static func serving(
        _ configuration: ServerConfiguration, store: any ServerStore, _ body: (Int) async throws -> Void
    ) async throws {
        var logger = Logger(label: "bench.chain")
        logger.logLevel = .error
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        let app = try buildApplication(configuration: configuration, store: store, logger: logger) { sink.yield($0) }
        let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw CancellationError() }
            do { try await body(port) } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
    }

    /// The walk alone: every page from genesis to the tip at level High, read and decoded.
    static func walkOnly(url: URL) async throws -> Double {
        let client = KaspaNodeClient(
            configuration: KaspaNodeConfiguration(
                endpoints: [.node(url)], network: .testnet10, requiresUTXOIndex: false),
            transport: WebSocketClientTransport())
        let dag = try await client.call(.getBlockDagInfo, as: RPCBlockDAGInfo.self)
        var position = try Hex.decode(dag.pruningPointHash)
        let clock = ContinuousClock()
        let start = clock.now
        while true {
            let page = try await client.call(
                .getVirtualChainFromBlockV2,
                RPCVirtualChainFromBlockRequest(startHash: position, dataVerbosityLevel: .high),
                as: RPCVirtualChainFromBlockResponse.self)
            guard let last = page.addedChainBlockHashes.last else { break }
            position = last
        }
        let seconds = (clock.now - start).nanoseconds / 1e9
        await client.disconnect()
        return seconds
    }

    struct OpenedStore {
        let store: any ServerStore
        let close: @Sendable () -> Void
    }

    static func store(_ configuration: Configuration) async throws -> OpenedStore {
        guard let url = configuration.databaseURL else {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chain-bench-db-\(UUID())")
            let store = try SQLiteServerStore(
                fileURL: directory.appendingPathComponent("tandem.sqlite"),
                checkpointInterval: configuration.commitCheckpoints ? nil : .seconds(1))
            let running = Task { try await store.runServices() }
            return OpenedStore(store: store) {
                running.cancel()
                try? FileManager.default.removeItem(at: directory)
            }
        }
        var logger = Logger(label: "bench.postgres")
        logger.logLevel = .error
        let store = try PostgresServerStore(url: url, logger: logger)
        let running = Task { try await store.runServices() }
        try await store.migrate()
        try await store.truncateAll()
        return OpenedStore(store: store) { running.cancel() }
    }
}

/// A shell loop under `chrt --idle 0`: a process that wants a core all the time and gets it only
/// when nothing else does. It checks on each turn that the bench (its parent: `chrt` execs the
/// shell) is still there, so a bench that dies does not leave it spinning.
final class BusyLoop {
    private let process = Process()

    /// Starts the loop.
    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chrt")
        process.arguments = ["--idle", "0", "/bin/sh", "-c", "while kill -0 $PPID 2>/dev/null; do :; done"]
        try process.run()
    }

    /// Ends the loop with SIGKILL: started from this process, the loop did not end on SIGTERM
    /// (`terminate()`), so the bench hung waiting for it.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// The node a chain bench reads: traffic made on it, its tip, its URL.
protocol BenchNode: Sendable {
    var url: URL { get }
    /// Sends `rounds` rounds of traffic from `senders` senders; answers their addresses.
    func send(senders: Int, rounds: Int, roundsPerBlock: Int) async throws -> [String]
    /// The hash of the chain's last block, lowercase hex.
    func tip() async throws -> String
    func blocks() async throws -> Int
}

/// The simulated node in this process.
struct InProcessNode: BenchNode {
    let node: SimulatedKaspaNode
    let url: URL

    func send(senders: Int, rounds: Int, roundsPerBlock: Int) async throws -> [String] {
        let (addresses, _) = try await node.traffic.send(
            senders: senders, rounds: rounds, roundsPerBlock: roundsPerBlock, on: node)
        return addresses.map(\.description)
    }

    func tip() async throws -> String { await node.read { Hex.encode($0.tip.hash) } }
    func blocks() async throws -> Int { await node.read { $0.blocks.count } }
}

/// A `tandem-simnode` process, driven through its control API.
struct ProcessNode: BenchNode, @unchecked Sendable {
    let process: SimNodeProcess
    var url: URL { process.url }

    func send(senders: Int, rounds: Int, roundsPerBlock: Int) async throws -> [String] {
        struct Traffic: Encodable {
            var senders: Int
            var rounds: Int
            var roundsPerBlock: Int
        }
        struct Answer: Decodable { var addresses: [String] }
        let body = try await process.control(
            "traffic", Traffic(senders: senders, rounds: rounds, roundsPerBlock: roundsPerBlock))
        return try JSONDecoder().decode(Answer.self, from: body).addresses
    }

    func tip() async throws -> String {
        guard let tip = try await process.state()["tip"] as? String else { throw CLIError("simnode: no tip") }
        return tip
    }

    func blocks() async throws -> Int { try await process.state()["blockCount"] as? Int ?? 0 }
}
