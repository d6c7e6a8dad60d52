public import KaspaRPC

extension SimulatedChain {
    /// The most added blocks one `getVirtualChainFromBlockV2` answer holds. A node's bound is
    /// the mergeset size limit × 10 (§5); the simulation uses a round figure, and the client
    /// pages by calling again from the last added hash either way.
    public static let virtualChainPageSize = 1000

    /// The chain walk from `startHash` (§5): the blocks a reorg removed between it and the chain,
    /// highest first, then the chain blocks above the fork point, ascending, at most `limit` of
    /// them, leaving out the tail blocks with `minConfirmationCount` or fewer confirmations (a
    /// block's confirmations are the tip's blue score minus its own). `startHash` is a chain
    /// block or one a reorg removed; anything else is ``SimulatedChainError/unknownStartHash(_:)``.
    public func virtualChainWalk(
        from startHash: [UInt8], minConfirmationCount: UInt64? = nil, limit: Int = virtualChainPageSize
    ) throws(SimulatedChainError) -> VirtualChainWalk {
        var removed: [SimulatedBlock] = []
        var cursor = startHash
        var forkIndex = chainIndex(of: cursor)
        while forkIndex == nil {
            // Each removed block's parent is a chain block or was removed too (genesis stays).
            guard let former = formerChainBlocks[cursor], let parent = former.parentHash else {
                throw .unknownStartHash(startHash)
            }
            removed.append(former)
            cursor = parent
            forkIndex = chainIndex(of: cursor)
        }
        guard let forkIndex else { throw .unknownStartHash(startHash) }
        var added = Array(blocks[(forkIndex + 1)...])
        if let minConfirmationCount {
            let tipScore = tip.blueScore(genesisDaaScore: genesis.daaScore)
            added.removeAll { tipScore - $0.blueScore(genesisDaaScore: genesis.daaScore) <= minConfirmationCount }
        }
        return VirtualChainWalk(removed: removed, added: Array(added.prefix(max(limit, 0))))
    }

    /// `getVirtualChainFromBlockV2`'s answer to `request` (§5): ``virtualChainWalk(from:minConfirmationCount:limit:)``
    /// with each added block's header and accepted transactions at the request's level.
    public func virtualChain(
        _ request: RPCVirtualChainFromBlockRequest, limit: Int = virtualChainPageSize
    ) throws(SimulatedChainError) -> RPCVirtualChainFromBlockResponse {
        try virtualChain(
            virtualChainWalk(from: request.startHash, minConfirmationCount: request.minConfirmationCount, limit: limit),
            level: request.level)
    }

    /// The answer for `walk` at `level`: each added block's header and accepted transactions.
    public func virtualChain(_ walk: VirtualChainWalk, level: RPCDataVerbosityLevel) throws(SimulatedChainError)
        -> RPCVirtualChainFromBlockResponse
    {
        // A real node converts every address of the page from Low up, and one it cannot convert
        // fails the whole call (kaspa-node.md §11); at None it does not look.
        if level >= .low, let block = walk.added.first(where: { $0.hasNonStandardScript }) {
            throw .nonStandardScriptInPage(block: block.hash)
        }
        return RPCVirtualChainFromBlockResponse(
            removedChainBlockHashes: walk.removed.map(\.hash), addedChainBlockHashes: walk.added.map(\.hash),
            chainBlockAcceptedTransactions: walk.added.map { block in
                RPCChainBlockAcceptedTransactions(
                    chainBlockHeader: block.header(
                        level: level, genesisDaaScore: genesis.daaScore, pruningPoint: genesis.hash),
                    acceptedTransactions: block.acceptedTransactions(level: level, network: network.network))
            })
    }

    /// The block's position in the current chain, if it is a chain block.
    private func chainIndex(of hash: [UInt8]) -> Int? {
        // Hashes are unique; a chain walk usually starts near the tip.
        blocks.lastIndex { $0.hash == hash }
    }
}

extension SimulatedBlock {
    /// Whether one of the block's accepted transactions pays to, or spends, a script that is not
    /// a standard address (``SimulatedChain/fund(script:amount:time:)`` makes one).
    var hasNonStandardScript: Bool {
        transactions.contains { accepted in
            accepted.transaction.outputs.contains { !SimulatedChain.isStandard($0.scriptPublicKey.value) }
                || accepted.spent.contains { !SimulatedChain.isStandard($0.scriptPublicKey) }
        }
    }
}
