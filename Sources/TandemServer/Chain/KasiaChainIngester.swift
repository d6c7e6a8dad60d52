import Foundation
import KaspaCrypto
import KaspaNode
import KaspaRPC
import Logging
import ServiceLifecycle
import TandemBasics
import TandemServerStore

/// Follows a Kaspa node's virtual chain and stores every accepted Kasia transaction as an
/// indexer row (issue 25).
///
/// It reads the chain with `getVirtualChainFromBlockV2` at level High (kaspa-node.md §5) rather
/// than kasia-indexer's BlockAdded + VirtualChainChanged pair: one call answers the accepted
/// transactions with their payloads, the first input's address (the sender, which upstream
/// resolves later with more calls), the including block's time and the accepting block, and
/// the removed chain blocks of a reorg, all from a cursor the node checks. The same call
/// catches up after a restart and follows the tip (polled every `idlePoll` once it answers
/// nothing new), so there is one code path and no notification to miss.
///
/// Each chain block's rows commit with the cursor's move (``ServerStore/applyKasiaChainPage``),
/// so a killed server resumes from the last committed block with no gap and no duplicate. A
/// node that fails, stalls, is unsynced or is behind the cursor is left for the next one, with
/// backoff; none of it blocks the API, which reads ``KasiaChainStatus`` only.
struct KasiaChainIngester: Service {
    let store: any RelayStore
    let client: KaspaNodeClient
    let network: KaspaNetwork
    /// The network's name as the cursor keeps it (`mainnet`, `testnet-10`).
    let networkID: String
    let status: KasiaChainStatus
    let clock: any WallClock
    let logger: Logger
    /// Where to start without a stored cursor; nil: the node's pruning point.
    let startHash: String?
    /// Called after a page changed rows (the relay's fan-out).
    let onCommit: @Sendable () async -> Void
    var idlePoll: Duration = .milliseconds(250)
    var backoff = NodeBackoff(initial: .milliseconds(500), maximum: .seconds(10))
    /// About how many rows one store transaction carries; a page with more is split at block
    /// boundaries (``KaspaIndexConfiguration/rowsPerCommit``).
    var rowsPerCommit = KaspaIndexConfiguration.defaultRowsPerCommit
    /// The longest the ingest waits, before each commit, for the reads in flight to finish.
    var readYield: Duration = .milliseconds(20)
    /// How many times in a row the node may refuse one page (for another reason than IBD or an
    /// unknown start) before it is skipped (``ChainWalk``), and the wait between them.
    var refusalsBeforeSkip = 3
    var refusalPause: Duration = .milliseconds(250)
    /// The longest one step's walk runs; a longer catch-up goes on in the next step.
    var walkDeadline: Duration = .seconds(60)

    /// The lower-priority thread the ingest runs on, so requests come first on busy cores.
    static let executor = BackgroundExecutor()

    /// Waits to be the database's ingester, then follows the node until shutdown.
    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await store.asKasiaIngester(retry: .seconds(2)) {
                    status.update { $0.role = .ingester }
                    defer {
                        status.update { snapshot in
                            let failures = snapshot.failures
                            snapshot = KasiaChainStatus.Snapshot()
                            snapshot.failures = failures
                        }
                    }
                    await withTaskExecutorPreference(Self.executor) { await follow() }
                }
            }
        } catch is CancellationError {}
    }

    /// Reads and stores pages forever; every failure is logged, reported and retried.
    func follow() async {
        var failures = 0
        while !Task.isCancelled {
            do {
                try await step()
                failures = 0
            } catch is CancellationError {
                return
            } catch {
                failures += 1
                let delay = backoff.delay(afterFailures: failures)
                logger.warning("kasia chain ingest: \(error); retrying in \(delay)")
                status.update {
                    $0.lastError = String(describing: error)
                    $0.synced = false
                    $0.failures += 1
                }
                if (error as? KaspaNodeError)?.isTransportFailure == true || error is IngestError {
                    status.update { $0.node = nil }
                }
                try? await Task.sleep(for: delay)
            }
        }
    }

    /// One walk from the stored cursor to the node's sink, or one idle wait at the sink.
    func step() async throws {
        let info = try await client.connect()
        let node = await client.node.map(URLRedaction.redact)
        let stored = try await store.kasiaChainCursor()
        if let stored, !stored.network.isEmpty, stored.network != networkID {
            throw IngestError.otherNetwork(stored: stored.network, configured: networkID)
        }
        let dag = try await client.call(.getBlockDagInfo, as: RPCBlockDAGInfo.self)
        if let stored, dag.virtualDaaScore < stored.daaScore {
            // A node behind the cursor does not know it yet: use another.
            await client.abandonCurrentNode()
            throw IngestError.nodeBehind(node: node ?? "?", nodeScore: dag.virtualDaaScore, cursor: stored.daaScore)
        }
        status.update {
            $0.node = node
            $0.cursor = stored
            $0.lagBlocks = stored.map { dag.virtualDaaScore &- min($0.daaScore, dag.virtualDaaScore) }
        }
        var cursor = stored
        let pruningPoint = try Self.hash(dag.pruningPointHash, "pruning point")
        var walk = ChainWalk(client: client)
        walk.refusalsBeforeSkip = refusalsBeforeSkip
        walk.refusalPause = refusalPause
        walk.deadline = walkDeadline
        // The walk ends at the sink the node named at the step's start (kaspa-node.md §11); the
        // next step goes on from there. Only an unknown start goes back to the pruning point.
        let ending = try await walk.walk(
            from: try startHash(stored: stored, dag: dag), fallback: pruningPoint, sink: try? Hex.decode(dag.sink),
            scores: ChainWalk.Scores(start: stored?.daaScore, sink: dag.virtualDaaScore), notice: log
        ) { page in
            cursor = try await apply(page, from: cursor)
            status.update {
                $0.cursor = cursor
                $0.lagBlocks = cursor.map { dag.virtualDaaScore &- min($0.daaScore, dag.virtualDaaScore) }
            }
        }
        switch ending.stop {
        case .notAdvancing?:
            // A stuck or lying node: failed over with backoff, never walked in a tight loop.
            await client.abandonCurrentNode()
            throw IngestError.notAdvancing(ending.stop ?? .notAdvancing(after: ending.reached))
        case .deadline?:
            // A long catch-up: committed so far; the next step goes on at once.
            logger.info("kasia chain ingest: \(ending.stop?.description ?? "")")
            return
        case nil:
            break
        }
        status.update {
            $0.cursor = cursor
            $0.lagBlocks = 0
            $0.synced = info.info.isSynced
            $0.lastError = nil
        }
        try await Task.sleep(for: idlePoll)
    }

    /// The walk's notices, in the log: a page skipped loses its transactions for good.
    private func log(_ notice: ChainWalk.Notice) {
        switch notice {
        case .restarted(let from, let error):
            logger.error("kasia chain ingest: \(error); restarting from the node's pruning point \(Hex.encode(from))")
        case .refused(let position, let refusals, let error):
            logger.warning(
                "kasia chain ingest: the page after \(Hex.encode(position)) was refused (\(refusals) in a row): \(error)"
            )
        case .skipped(let position, let blocks, let error):
            logger.error(
                "kasia chain ingest: skipping \(blocks) chain blocks after \(Hex.encode(position)), whose transactions the node refuses to show: \(error)"
            )
        }
    }

    private func startHash(stored: KasiaChainCursor?, dag: RPCBlockDAGInfo) throws -> [UInt8] {
        if let stored { return try Self.hash(stored.block, "stored cursor") }
        if let startHash { return try Self.hash(startHash, "--kaspa-start-hash") }
        return try Self.hash(dag.pruningPointHash, "pruning point")
    }

    /// Stores one node answer: its removals with the first commit, then its blocks in commits
    /// of about ``rowsPerCommit`` rows (closed at the first block past it), each moving the
    /// cursor to its last block and each after the reads in flight (``readYield``). A block read
    /// at level None (a skipped page) has no header: the cursor keeps the last score and time.
    private func apply(_ page: ChainWalk.Page, from start: KasiaChainCursor?) async throws
        -> KasiaChainCursor?
    {
        var cursor = start
        var removed = page.removed.map { Hex.encode($0) }
        var rows: [KasiaChainRow] = []
        func commit(to: KasiaChainCursor) async throws {
            // Reads a client waits for go first: the ingest is background work (issue 49 item 5).
            await store.activity.readsQuiet(atMost: readYield)
            let applied = try await store.applyKasiaChainPage(
                KasiaChainPage(from: cursor, removedBlocks: removed, rows: rows, to: to), now: clock.now)
            cursor = to
            removed = []
            rows = []
            if applied.changedRows { await onCommit() }
        }
        for (index, block) in page.added.enumerated() {
            let daaScore = block.daaScore ?? cursor?.daaScore ?? 0
            let time = block.time ?? UInt64(clamping: cursor?.blockTime.rawValue ?? 0)
            let acceptance = KasiaAcceptance(block: Hex.encode(block.hash), daaScore: daaScore)
            for transaction in block.transactions {
                if let row = KasiaChainRowReader.row(
                    transaction, acceptance: acceptance, fallbackTime: time, network: network)
                {
                    rows.append(row)
                }
            }
            if index == page.added.count - 1 || rows.count >= rowsPerCommit {
                try await commit(
                    to: KasiaChainCursor(
                        block: acceptance.block, daaScore: daaScore, blockTime: UnixMillis(Int64(clamping: time)),
                        network: networkID))
            }
        }
        if page.added.isEmpty, !removed.isEmpty, let current = cursor {
            // Only removals: the cursor stays (the walk's next answer names the new blocks).
            try await commit(to: current)
        }
        return cursor
    }

    private static func hash(_ text: String, _ what: String) throws -> [UInt8] {
        guard let bytes = try? Hex.decode(text), bytes.count == 32 else {
            throw IngestError.badHash(what: what, text: text)
        }
        return bytes
    }

    enum IngestError: Error, CustomStringConvertible {
        case nodeBehind(node: String, nodeScore: UInt64, cursor: UInt64)
        case badHash(what: String, text: String)
        case otherNetwork(stored: String, configured: String)
        /// The node's pages stopped advancing (``ChainWalk/Stop/notAdvancing(after:)``): what was
        /// walked is committed; the next walk waits the backoff and may use another node.
        case notAdvancing(ChainWalk.Stop)

        var description: String {
            switch self {
            case .notAdvancing(let stop): stop.description
            case .nodeBehind(let node, let score, let cursor):
                "node \(node) is behind the index (virtual DAA score \(score) < \(cursor))"
            case .badHash(let what, let text): "the \(what) \(text) is not a 32-byte block hash"
            case .otherNetwork(let stored, let configured):
                "the database indexes \(stored), not \(configured): use another database, or --kaspa-network \(stored)"
            }
        }
    }
}
