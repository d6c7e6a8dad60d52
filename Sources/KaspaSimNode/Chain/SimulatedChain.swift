import Crypto
public import KasiaIndex
public import KaspaCrypto
public import KaspaRPC
public import KaspaTransaction
public import TandemBasics

/// The simulated node's chain as a value (kaspa-node.md §10): a UTXO set, a mempool in arrival
/// order and a line of blocks, one per DAA step, where the block that includes a transaction is
/// also the one that accepts it. Time comes from the caller, so tests drive it without a clock.
///
/// What it models: real transaction ids and sighashes (`KaspaTransaction`), BIP-340 (and ECDSA)
/// signatures checked against the spent UTXO's script, the §7 fee floor and mass limits computed
/// as the node does (``NodeMass``; storage mass by KIP-9), the §6 rejection texts, children of
/// mempool transactions, double spends, coinbase maturity (1,000 DAA), net UTXO diffs on
/// acceptance, reorgs that return still-valid transactions to the mempool, and the chain walk of
/// `getVirtualChainFromBlockV2` (``virtualChain(_:limit:)``), which remembers the blocks reorgs
/// removed so a walk from one reports them, and what a kasia-indexer following the chain holds
/// (``kasiaIndex``).
///
/// What it leaves out (§10): P2SH inputs (refused as unverifiable) and any script engine beyond
/// pay-to-public-key, replace-by-fee, the orphan pool (`allowOrphan` is read as false), sequence
/// and lock-time rules, a DAG (no merged blocks, so `blockHash` is also the accepting block),
/// mempool eviction and priority (a switch makes it "full"), P2P, headers and blocks calls,
/// pruning, transaction versions above 0 and non-native subnetworks (not checked), and the exact
/// texts of JSON decoding errors.
public struct SimulatedChain: Sendable {
    /// Compute, transient and storage mass above this are not standard (§7, before Toccata).
    public static let maximumStandardMass: UInt64 = 100_000
    /// A coinbase output is spendable this many DAA steps after its block (100 s at 10 BPS).
    public static let coinbaseMaturity: UInt64 = 1000
    /// The subnetwork of coinbase transactions: 1 then 19 zero bytes.
    static let coinbaseSubnetwork: [UInt8] = [1] + [UInt8](repeating: 0, count: 19)

    public let network: KaspaNetworkID
    /// Genesis first, the tip last; never empty.
    public private(set) var blocks: [SimulatedBlock]
    /// In arrival order, which is the order the next block accepts them in.
    public private(set) var mempool: [MempoolTransaction] = []
    /// While true every submission is refused as if the mempool were full of better transactions.
    public var isMempoolFull = false

    var utxos: [KaspaOutpoint: StoredUtxo] = [:]
    /// Ids of the transactions the chain accepted, with the DAA score of the accepting block.
    var accepted: [[UInt8]: UInt64] = [:]
    var nextSequence: UInt64 = 0
    /// Every block ever made, removed ones included: keeps hashes unique across reorgs.
    var blocksMade: UInt64 = 0
    /// The blocks reorgs removed, by hash: a chain walk may start from one (§5) and reports the
    /// removed blocks between it and the chain. Kept for the node's life (no pruning).
    var formerChainBlocks: [[UInt8]: SimulatedBlock] = [:]
    /// The kasia-indexer rows of each block made, read once when the block is made (a reorg's
    /// removed blocks keep theirs, unread).
    var kasiaRowsByBlock: [[UInt8]: [KasiaIndexRow]] = [:]
    /// What a kasia-indexer following this chain holds (kasia-protocol §4, §10): a row for each
    /// Kasia transaction the chain blocks accepted, ascending by block time and in chain order
    /// within one time. Kept as blocks come and go (an indexer request reads it, often), so the
    /// blocks a reorg removed are gone and a transaction a later block accepts again appears with
    /// that block. See ``kasiaRows(of:)`` for how a transaction becomes a row.
    public private(set) var kasiaIndex: [KasiaIndexRow] = []
    var fundings: UInt64 = 0

    struct StoredUtxo: Sendable, Hashable {
        var entry: KaspaUtxoEntry
        var sequence: UInt64
    }

    public init(
        network: KaspaNetworkID = .testnet10, genesisDaaScore: UInt64 = 1_000_000,
        genesisTime: UnixMillis = UnixMillis(1_750_000_000_000)
    ) {
        self.network = network
        let hash = Self.blockHash(
            parent: Array("tandem-simnode \(network)".utf8), daaScore: genesisDaaScore,
            time: genesisTime, nonce: 0, transactionIDs: [])
        blocks = [
            SimulatedBlock(
                hash: hash, parentHash: nil, daaScore: genesisDaaScore, time: genesisTime, transactions: [],
                diff: .init())
        ]
        blocksMade = 1
    }

    public var tip: SimulatedBlock { blocks[blocks.count - 1] }
    public var genesis: SimulatedBlock { blocks[0] }

    /// The tip's DAA score: what `getServerInfo` and maturity read.
    public var virtualDaaScore: UInt64 { tip.daaScore }

    // MARK: Changing the chain

    /// Mints `amount` sompi to `address` in a new block of its own (a faucet transaction with no
    /// inputs; a coinbase one when `coinbase`, which matures after ``coinbaseMaturity``). The
    /// mempool waits for the next ``mineBlock(time:)``.
    public mutating func fund(
        _ address: KaspaAddress, amount: UInt64, coinbase: Bool = false, time: UnixMillis
    ) throws(SimulatedChainError) -> (transactionID: [UInt8], update: ChainUpdate) {
        try fund(script: KaspaScriptPublicKey(address: address), amount: amount, coinbase: coinbase, time: time)
    }

    /// Mints `amount` sompi to `script`, which may be non-standard (a miner may include what the
    /// mempool refuses): from then on, a chain walk at level Low or above whose page holds the
    /// block fails as a real node's does (kaspa-node.md §11).
    public mutating func fund(
        script: KaspaScriptPublicKey, amount: UInt64, coinbase: Bool = false, time: UnixMillis
    ) throws(SimulatedChainError) -> (transactionID: [UInt8], update: ChainUpdate) {
        guard amount > 0 else { throw .zeroAmount }
        fundings += 1
        var counter = fundings
        let transaction = KaspaTransaction(
            inputs: [], outputs: [KaspaTransactionOutput(value: amount, scriptPublicKey: script)],
            subnetworkID: coinbase ? Self.coinbaseSubnetwork : KaspaTransaction.nativeSubnetwork,
            payload: Array("tandem-simnode fund ".utf8) + withUnsafeBytes(of: &counter) { Array($0) })
        let funding = RPCTransaction(transaction)
        let update = appendBlock(
            time: time,
            transactions: [
                Pending(
                    id: transaction.id, transaction: funding, isFunding: true, isCoinbase: coinbase,
                    hash: transaction.hash, computeMass: NodeMass(of: funding).computeMass, storageMass: 0)
            ])
        return (transaction.id, update)
    }

    /// Makes the next block: it accepts the whole mempool in arrival order.
    public mutating func mineBlock(time: UnixMillis) -> ChainUpdate {
        let waiting = mempool
        mempool = []
        return appendBlock(
            time: time,
            transactions: waiting.map {
                Pending(
                    id: $0.id, transaction: $0.transaction, isFunding: false, isCoinbase: false, hash: $0.hash,
                    computeMass: $0.mass.computeMass, storageMass: $0.storageMass)
            })
    }

    /// Removes the last `depth` blocks: their UTXO changes are undone, their transactions go back
    /// to the mempool ahead of those already waiting when they are still valid (faucet mints are
    /// dropped, and with them whatever spent them), and the update carries the net undo.
    public mutating func reorg(depth: Int) throws(SimulatedChainError) -> ChainUpdate {
        guard depth >= 1, depth < blocks.count else { throw .reorgTooDeep(depth: depth, blocks: blocks.count - 1) }
        var diff = UtxoSetDiff()
        var returned: [RPCTransaction] = []
        for _ in 0..<depth {
            let block = blocks.removeLast()
            formerChainBlocks[block.hash] = block
            for entry in block.diff.added { utxos[entry.outpoint] = nil }
            for entry in block.diff.removed {
                utxos[entry.outpoint] = StoredUtxo(entry: entry, sequence: nextSequence)
                nextSequence += 1
            }
            for transaction in block.transactions { accepted[transaction.id] = nil }
            returned = block.transactions.filter { !$0.isFunding }.map(\.transaction) + returned
            diff = diff.followed(by: block.diff.reversed)
        }
        kasiaIndex = kasiaIndexOfBlocks()
        let waiting = mempool.map(\.transaction)
        mempool = []
        for transaction in returned + waiting {
            if let entry = try? admit(transaction, checkingCapacity: false) { mempool.append(entry) }
        }
        return ChainUpdate(utxos: diff, virtualDaaScore: virtualDaaScore)
    }

    /// Validates `transaction` as a node's RPC submit does and adds it to the mempool; the id is
    /// the transaction's real id.
    public mutating func submit(_ transaction: RPCTransaction) throws(SubmitRejection) -> [UInt8] {
        let entry = try admit(transaction, checkingCapacity: true)
        mempool.append(entry)
        return entry.id
    }

    /// A transaction on its way into a block, with what the block keeps of it.
    private struct Pending {
        var id: [UInt8]
        var transaction: RPCTransaction
        var isFunding: Bool
        var isCoinbase: Bool
        var hash: [UInt8]
        var computeMass: UInt64
        var storageMass: UInt64
    }

    private mutating func appendBlock(time: UnixMillis, transactions: [Pending]) -> ChainUpdate {
        let daaScore = tip.daaScore + 1
        var diff = UtxoSetDiff()
        var accepted: [SimulatedBlock.AcceptedTransaction] = []
        for item in transactions {
            let change = apply(item.transaction, id: item.id, daaScore: daaScore, isCoinbase: item.isCoinbase)
            diff = diff.followed(by: change)
            accepted.append(
                SimulatedBlock.AcceptedTransaction(
                    id: item.id, transaction: item.transaction, isFunding: item.isFunding, hash: item.hash,
                    computeMass: item.computeMass, storageMass: item.storageMass, spent: change.removed))
        }
        let hash = Self.blockHash(
            parent: tip.hash, daaScore: daaScore, time: time, nonce: blocksMade, transactionIDs: transactions.map(\.id))
        blocksMade += 1
        let block = SimulatedBlock(
            hash: hash, parentHash: tip.hash, daaScore: daaScore, time: time, transactions: accepted, diff: diff)
        blocks.append(block)
        let rows = kasiaRows(of: block)
        kasiaRowsByBlock[hash] = rows
        for row in rows {
            // After every row of the same or an earlier time: chain order within one time (block
            // times may go backwards, a clock set back).
            let index = kasiaIndex.lastIndex { $0.blockTime <= row.blockTime }.map { $0 + 1 } ?? 0
            kasiaIndex.insert(row, at: index)
        }
        return ChainUpdate(utxos: diff, virtualDaaScore: daaScore)
    }

    /// Spends the inputs and adds the outputs of one accepted transaction; the diff's `removed`
    /// are the spent entries in input order.
    private mutating func apply(
        _ transaction: RPCTransaction, id: [UInt8], daaScore: UInt64, isCoinbase: Bool
    ) -> UtxoSetDiff {
        var diff = UtxoSetDiff()
        for input in transaction.inputs {
            if let outpoint = input.previousOutpoint, let stored = utxos.removeValue(forKey: outpoint) {
                diff.removed.append(stored.entry)
            }
        }
        for (index, output) in transaction.outputs.enumerated() {
            let outpoint = KaspaOutpoint(transactionID: id, index: UInt32(index))
            let entry = KaspaUtxoEntry(
                address: output.scriptPublicKey.value.address(network: network.network), outpoint: outpoint,
                amount: output.value, scriptPublicKey: output.scriptPublicKey.value, blockDAAScore: daaScore,
                isCoinbase: isCoinbase)
            utxos[outpoint] = StoredUtxo(entry: entry, sequence: nextSequence)
            nextSequence += 1
            diff.added.append(entry)
        }
        accepted[id] = daaScore
        return diff
    }

    static func blockHash(
        parent: [UInt8], daaScore: UInt64, time: UnixMillis, nonce: UInt64, transactionIDs: [[UInt8]]
    ) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(data: parent)
        for number in [daaScore, UInt64(bitPattern: time.rawValue), nonce] {
            withUnsafeBytes(of: number.littleEndian) { hasher.update(bufferPointer: $0) }
        }
        for id in transactionIDs { hasher.update(data: id) }
        return Array(hasher.finalize())
    }
}
