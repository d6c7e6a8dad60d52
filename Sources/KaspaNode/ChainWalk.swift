public import KaspaRPC
import TandemBasics

/// One walk of a node's virtual chain (kaspa-node.md §5, §8, §11), written once for the server's
/// chain ingest and the client's Kaspa chat transport (issue 43 item 7): pages of
/// `getVirtualChainFromBlockV2` at level High from a start block to the sink, each handed to the
/// caller as a ``Page`` (the chain blocks a reorg removed, then the added blocks with the
/// transactions they accepted), and the last chain block walked as the next cursor.
///
/// The rules of a real node live here only:
/// - The walk ends at the sink the caller read before it (at 10 blocks per second a page is
///   rarely empty), or at an empty page.
/// - Only `cannot find header <hash>` (the start was pruned, or is another network's) starts the
///   walk again from `fallback`, once; the caller's stored rows absorb what is read twice.
/// - Any other refusal of a page is retried from the same page, after a short wait; after
///   ``refusalsBeforeSkip`` refusals in a row the page's blocks are read at level None (a real
///   node cannot convert a non-standard output at Low and above, but answers None) and handed
///   over as a skipped page: their transactions are lost to this walk, never retried forever.
/// - A transport failure or an IBD refusal is thrown: the caller fails over and walks again.
///
/// A node that lies cannot keep a walk going (issue 50 item 3): the walk also ends when a page
/// reaches the sink's DAA score (a node that never names the sink it gave), when a page does not
/// move it on (it starts or ends where an earlier page of this walk did, or its blocks' scores
/// go backwards), and at its ``deadline``. Those endings are answered as a ``Stop`` with how far
/// the walk got: what was applied stays applied, and the next walk goes on from there.
public struct ChainWalk: Sendable {
    /// One chain block the walk added, with what it accepted.
    public struct Block: Sendable {
        public let hash: [UInt8]
        /// The header's DAA score and time (milliseconds); nil for a block read at level None.
        public let daaScore: UInt64?
        public let time: UInt64?
        /// The transactions the block accepted, in the node's order; empty for a skipped page.
        public let transactions: [RPCTransaction]
    }

    /// One answer of the node, as the caller applies it.
    public struct Page: Sendable {
        /// Chain blocks a reorg removed, highest first: what they accepted is no longer accepted.
        public let removed: [[UInt8]]
        public let added: [Block]
        /// Why the page's transactions are missing: the refusal that made the walk read its
        /// blocks at level None. Nil for a page read at level High.
        public let skippedBecause: KaspaNodeError?
    }

    /// What the walk tells its caller's log.
    public enum Notice: Sendable {
        /// The start was unknown to the node: the walk began again from `fallback`.
        case restarted(from: [UInt8], because: KaspaNodeError)
        /// A page was refused; it is read again after a wait.
        case refused(at: [UInt8], refusals: Int, because: KaspaNodeError)
        /// A page refused ``refusalsBeforeSkip`` times was read at level None and skipped.
        case skipped(after: [UInt8], blocks: Int, because: KaspaNodeError)
    }

    /// The DAA scores of a walk's start (when known) and of the sink.
    public struct Scores: Sendable {
        public var start: UInt64?
        public var sink: UInt64

        public init(start: UInt64?, sink: UInt64) {
            self.start = start
            self.sink = sink
        }
    }

    /// Why a walk ended before the sink.
    public enum Stop: Sendable, Equatable, CustomStringConvertible {
        /// The walk ran for its whole ``ChainWalk/deadline``.
        case deadline(Duration)
        /// The node answered a page that does not move the walk on: its blocks were walked
        /// already, or their DAA scores do not rise. The node is stuck, or lying.
        case notAdvancing(after: [UInt8])

        public var description: String {
            switch self {
            case .deadline(let limit):
                "the chain walk stopped after its time limit (\(limit.components.seconds) s); the next one goes on from there"
            case .notAdvancing(let position):
                "the node's chain pages stopped advancing after block \(Hex.encode(position)); the node is stuck or misbehaving"
            }
        }
    }

    /// Where a walk got to, and why it stopped before the sink if it did.
    public struct Ending: Sendable, Equatable {
        /// The last chain block walked (the start when the node had nothing new).
        public let reached: [UInt8]
        public let stop: Stop?
    }

    public let client: KaspaNodeClient
    /// The longest a walk runs (``KaspaNodeConfiguration/walkDeadline`` unless set); then it ends
    /// with ``Stop/deadline(_:)`` at the last page applied.
    public var deadline: Duration
    /// Refusals of one page in a row before it is skipped.
    public var refusalsBeforeSkip = 3
    /// The wait before a refused page is read again, times the refusals so far.
    public var refusalPause: Duration = .milliseconds(250)

    public init(client: KaspaNodeClient) {
        self.client = client
        deadline = client.configuration.walkDeadline
    }

    /// Walks from `start` (exclusive) to `sink`, handing each page to `apply` in order; answers
    /// the last chain block walked (`start` when the node had nothing new) and why the walk
    /// stopped early, if it did. `fallback` is where a walk whose start the node does not know
    /// begins again; nil: that refusal is thrown. A page `apply` throws on is not walked past:
    /// the error is thrown. The walk runs in the caller's isolation (`nonisolated(nonsending)`),
    /// so `apply` may touch the caller's actor state.
    ///
    /// `scores` are the DAA scores of the start and of the sink when the caller knows them: each
    /// page call gets the time its span needs (``KaspaNodeConfiguration/pageTimeout(spanning:)``),
    /// the span narrowing as pages come in; without them a page gets the largest page's time.
    /// The sink's score also ends the walk: a page that reaches it is the last.
    nonisolated(nonsending) public func walk(
        from start: [UInt8], fallback: [UInt8]?, sink: [UInt8]?, scores: Scores? = nil,
        notice: (Notice) -> Void = { _ in }, apply: (Page) async throws -> Void
    ) async throws -> Ending {
        let clock = ContinuousClock()
        let ends = clock.now.advanced(by: deadline)
        var position = start
        var positionScore = scores?.start
        // Where each page of this walk ended: a page that comes back to one is a loop.
        var walked: Set<[UInt8]> = [start]
        var restarted = false
        var refusals = 0
        while true {
            try Task.checkCancellation()
            guard clock.now < ends else { return Ending(reached: position, stop: .deadline(deadline)) }
            let span = positionScore.flatMap { from in scores.map { $0.sink &- min(from, $0.sink) } }
            var page: Page
            switch await read(from: position, spanning: span) {
            case .success(let read):
                page = read
            case .failure(let error):
                if error.isUnknownStartHash, !restarted, let fallback, fallback != position {
                    notice(.restarted(from: fallback, because: error))
                    restarted = true
                    position = fallback
                    positionScore = nil
                    // Walking again from an earlier block meets the blocks walked so far again.
                    walked = [fallback]
                    continue
                }
                guard case .refused = error, !error.isTransportFailure, !error.isUnknownStartHash else { throw error }
                refusals += 1
                guard refusals >= refusalsBeforeSkip else {
                    notice(.refused(at: position, refusals: refusals, because: error))
                    try await Task.sleep(for: refusalPause * refusals)
                    continue
                }
                page = try await skipped(from: position, because: error)
                notice(.skipped(after: position, blocks: page.added.count, because: error))
            }
            refusals = 0
            guard !page.added.isEmpty || !page.removed.isEmpty else { break }
            // A reorg may put back a chain block it removed earlier in the walk.
            walked.subtract(page.removed)
            guard Self.advances(page, after: positionScore, walked: walked) else {
                return Ending(reached: position, stop: .notAdvancing(after: position))
            }
            try await apply(page)
            guard let last = page.added.last else { break }
            position = last.hash
            positionScore = last.daaScore ?? positionScore
            walked.insert(last.hash)
            // The walk ends on the page that holds the sink, wherever in the page it is, or that
            // reaches its score (a node may never name the sink it gave).
            if let sink, page.added.contains(where: { $0.hash == sink }) { break }
            if let sinkScore = scores?.sink, let score = last.daaScore, score >= sinkScore { break }
        }
        return Ending(reached: position, stop: nil)
    }

    /// Whether `page` moves a walk on: none of its blocks ends an earlier page of the walk, and
    /// the DAA scores of its blocks rise, from above the position's when the page removes nothing
    /// (a reorg's new blocks may score below the removed ones).
    static func advances(_ page: Page, after positionScore: UInt64?, walked: Set<[UInt8]>) -> Bool {
        guard !page.added.contains(where: { walked.contains($0.hash) }) else { return false }
        var previous = page.removed.isEmpty ? positionScore : nil
        for block in page.added {
            guard let score = block.daaScore else { continue }
            if let previous, score <= previous { return false }
            previous = score
        }
        return true
    }

    /// The page from `position` at level High, or why not.
    nonisolated(nonsending) private func read(from position: [UInt8], spanning span: UInt64?) async
        -> Result<Page, KaspaNodeError>
    {
        do {
            let answer = try await client.virtualChain(from: position, spanning: span)
            return .success(try await Self.page(answer, node: client))
        } catch {
            return .failure(error)
        }
    }

    /// The page from `position` read at level None: its chain blocks without their transactions.
    nonisolated(nonsending) private func skipped(from position: [UInt8], because refusal: KaspaNodeError)
        async throws -> Page
    {
        let answer = try await client.virtualChainHashes(from: position)
        return Page(
            removed: answer.removedChainBlockHashes,
            added: answer.addedChainBlockHashes.map {
                Block(hash: $0, daaScore: nil, time: nil, transactions: [])
            }, skippedBecause: refusal)
    }

    /// A High answer as a page; an answer whose accepted-transaction lists do not match its added
    /// blocks one for one is malformed (its blocks' transactions would be silently lost).
    static func page(_ answer: RPCVirtualChainFromBlockResponse, node: KaspaNodeClient) async throws(KaspaNodeError)
        -> Page
    {
        guard answer.chainBlockAcceptedTransactions.count == answer.addedChainBlockHashes.count else {
            throw .malformedAnswer(
                node: await node.node.map(URLRedaction.redact) ?? "?",
                method: RPCMethod.getVirtualChainFromBlockV2.rawValue,
                reason:
                    "\(answer.addedChainBlockHashes.count) added chain blocks but \(answer.chainBlockAcceptedTransactions.count) lists of accepted transactions"
            )
        }
        let blocks = zip(answer.addedChainBlockHashes, answer.chainBlockAcceptedTransactions).map { hash, accepted in
            Block(
                hash: hash, daaScore: accepted.chainBlockHeader.daaScore, time: accepted.chainBlockHeader.timestamp,
                transactions: accepted.acceptedTransactions)
        }
        return Page(removed: answer.removedChainBlockHashes, added: blocks, skippedBecause: nil)
    }
}
