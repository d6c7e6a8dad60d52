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
    /// Most rows one store transaction carries; a page with more is split at block boundaries.
    var rowsPerCommit = 2_000
    /// How many times in a row the node may refuse one page (for another reason than IBD or an
    /// unknown start) before it is skipped (``skipPage(from:because:)``).
    var refusalsBeforeSkip = 3

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
        var stuck: (position: [UInt8], refusals: Int)?
        while !Task.isCancelled {
            do {
                try await step()
                failures = 0
                stuck = nil
            } catch is CancellationError {
                return
            } catch {
                if let refused = error as? PageRefused {
                    let refusals = stuck?.position == refused.position ? (stuck?.refusals ?? 0) + 1 : 1
                    stuck = (refused.position, refusals)
                    if refusals >= refusalsBeforeSkip {
                        stuck = nil
                        do {
                            try await skipPage(from: refused.position, because: refused.error)
                            failures = 0
                            continue
                        } catch {
                            logger.warning("kasia chain ingest: the page could not be skipped either: \(error)")
                        }
                    }
                }
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
        let node = await client.node?.absoluteString
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
        var position = try startHash(stored: stored, dag: dag)
        let pruningPoint = try Self.hash(dag.pruningPointHash, "pruning point")
        let sink = try? Hex.decode(dag.sink)
        while !Task.isCancelled {
            let answer = await readPage(from: position)
            let page: RPCVirtualChainFromBlockResponse
            switch answer {
            case .success(let read): page = read
            case .failure(let error) where error.isUnknownStartHash && position != pruningPoint:
                // The node does not know the block (kaspa-node.md §11) although it is not behind the
                // cursor: pruned past it. Start again from its pruning point; stored rows are
                // merged. Any other refusal is thrown: the next step reads the same page again.
                logger.error(
                    "kasia chain ingest: \(error); restarting from the node's pruning point \(dag.pruningPointHash)")
                position = pruningPoint
                continue
            case .failure(let error) where !error.isTransportFailure:
                if case .refused = error { throw PageRefused(position: position, error: error) }
                throw error
            case .failure(let error): throw error
            }
            guard !page.addedChainBlockHashes.isEmpty || !page.removedChainBlockHashes.isEmpty else { break }
            cursor = try await apply(page, from: cursor)
            guard let last = page.addedChainBlockHashes.last else { break }
            position = last
            // The walk ends at the sink the node named at the step's start (kaspa-node.md §11); the
            // next step goes on from there.
            if last == sink { break }
            status.update {
                $0.cursor = cursor
                $0.lagBlocks = cursor.map { dag.virtualDaaScore &- min($0.daaScore, dag.virtualDaaScore) }
            }
        }
        status.update {
            $0.cursor = cursor
            $0.lagBlocks = 0
            $0.synced = info.info.isSynced
            $0.lastError = nil
        }
        try await Task.sleep(for: idlePoll)
    }

    /// Moves the index past a page the node keeps refusing to show at level High — a real node
    /// cannot convert a non-standard output at Low and above (kaspa-node.md §11) — so that one page
    /// is never retried forever: its chain blocks are read at level None (no transactions), the
    /// removals it names are applied and the cursor goes to its last block, with an error line
    /// saying which blocks' transactions are not indexed.
    func skipPage(from position: [UInt8], because refusal: KaspaNodeError) async throws {
        let page = try await client.virtualChain(from: position, level: .none)
        guard let last = page.addedChainBlockHashes.last else { return }
        let stored = try await store.kasiaChainCursor()
        // A header at None has only its hash: the cursor keeps the last known score and time.
        let to = KasiaChainCursor(
            block: Hex.encode(last), daaScore: stored?.daaScore ?? 0, blockTime: stored?.blockTime ?? UnixMillis(0),
            network: networkID)
        logger.error(
            "kasia chain ingest: skipping \(page.addedChainBlockHashes.count) chain blocks after \(Hex.encode(position)) up to \(to.block), whose transactions the node refuses to show: \(refusal)"
        )
        let applied = try await store.applyKasiaChainPage(
            KasiaChainPage(
                from: stored, removedBlocks: page.removedChainBlockHashes.map { Hex.encode($0) }, rows: [], to: to),
            now: clock.now)
        if applied.changedRows { await onCommit() }
    }

    private func readPage(from position: [UInt8]) async -> Result<RPCVirtualChainFromBlockResponse, KaspaNodeError> {
        do { return .success(try await client.virtualChain(from: position)) } catch { return .failure(error) }
    }

    private func startHash(stored: KasiaChainCursor?, dag: RPCBlockDAGInfo) throws -> [UInt8] {
        if let stored { return try Self.hash(stored.block, "stored cursor") }
        if let startHash { return try Self.hash(startHash, "--kaspa-start-hash") }
        return try Self.hash(dag.pruningPointHash, "pruning point")
    }

    /// Stores one node answer: its removals with the first commit, then its blocks in commits
    /// of at most ``rowsPerCommit`` rows, each moving the cursor to its last block.
    private func apply(_ page: RPCVirtualChainFromBlockResponse, from start: KasiaChainCursor?) async throws
        -> KasiaChainCursor?
    {
        var cursor = start
        var removed = page.removedChainBlockHashes.map { Hex.encode($0) }
        var rows: [KasiaChainRow] = []
        func commit(to: KasiaChainCursor) async throws {
            let applied = try await store.applyKasiaChainPage(
                KasiaChainPage(from: cursor, removedBlocks: removed, rows: rows, to: to), now: clock.now)
            cursor = to
            removed = []
            rows = []
            if applied.changedRows { await onCommit() }
        }
        let blocks = Array(zip(page.addedChainBlockHashes, page.chainBlockAcceptedTransactions))
        for (index, (hash, block)) in blocks.enumerated() {
            let header = block.chainBlockHeader
            let acceptance = KasiaAcceptance(block: Hex.encode(hash), daaScore: header.daaScore ?? 0)
            let time = header.timestamp ?? 0
            for transaction in block.acceptedTransactions {
                if let row = KasiaChainRowReader.row(
                    transaction, acceptance: acceptance, fallbackTime: time, network: network)
                {
                    rows.append(row)
                }
            }
            if index == blocks.count - 1 || rows.count >= rowsPerCommit {
                try await commit(
                    to: KasiaChainCursor(
                        block: acceptance.block, daaScore: acceptance.daaScore,
                        blockTime: UnixMillis(Int64(clamping: time)), network: networkID))
            }
        }
        if blocks.isEmpty, !removed.isEmpty, let current = cursor {
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

    /// The node refused the page from `position` (not IBD, not an unknown start).
    struct PageRefused: Error, CustomStringConvertible {
        let position: [UInt8]
        let error: KaspaNodeError
        var description: String { error.description }
    }

    enum IngestError: Error, CustomStringConvertible {
        case nodeBehind(node: String, nodeScore: UInt64, cursor: UInt64)
        case badHash(what: String, text: String)
        case otherNetwork(stored: String, configured: String)

        var description: String {
            switch self {
            case .nodeBehind(let node, let score, let cursor):
                "node \(node) is behind the index (virtual DAA score \(score) < \(cursor))"
            case .badHash(let what, let text): "the \(what) \(text) is not a 32-byte block hash"
            case .otherNetwork(let stored, let configured):
                "the database indexes \(stored), not \(configured): use another database, or --kaspa-network \(stored)"
            }
        }
    }
}
