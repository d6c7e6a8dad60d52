public import KasiaProtocol
public import KaspaCrypto

/// What a kasia-indexer keeps of one accepted Kasia transaction (kasia-protocol §4, §10): the
/// operation and its key (alias, scope), the parties, the including block's time, the accepting
/// block and the stored body. ``SimulatedChain/kasiaIndex`` computes them from the chain blocks,
/// so a reorg's removed blocks take their entries with them.
///
/// The simulated indexer models KaChat's kasia-indexer fork (both roots, `pay:` payments; K-Kluster's
/// upstream reads `ciph_msg:` and `payment:` only) with every sender resolved: the sender is the
/// first input's address at once (the real one resolves it asynchronously and answers `""` or
/// `null` until then), and the including block is the accepting one (no DAG).
public struct KasiaIndexEntry: Sendable, Hashable {
    /// The indexer's table for the operation, with the key it is stored under.
    public enum Operation: Sendable, Hashable {
        /// `1:handshake:` and the unversioned legacy bodies, under either root.
        case handshake
        /// `1:comm:<alias>:`, under the alias's bytes as written.
        case contextualMessage(alias: [UInt8])
        /// `1:payment:` (the web client's) and `1:pay:` (KaChat's, which its indexer fork files
        /// with the web's; kasia-protocol §4, §14 item 2, §16).
        case payment
        /// `1:self_stash:[<scope>:]`, under the scope's bytes (empty without one).
        case selfStash(scope: [UInt8])
    }

    public let operation: Operation
    /// The root that carried the payload (kasia-protocol §16).
    public let root: KasiaRoot
    public let txID: [UInt8]
    /// The address of the first input's spent output; nil for a transaction without inputs.
    public let sender: KaspaAddress?
    /// The first output's address and value (kasia-protocol §10).
    public let receiver: KaspaAddress?
    public let amount: UInt64?
    /// Milliseconds: the header time of the block that included the transaction.
    public let blockTime: UInt64
    public let acceptingBlock: [UInt8]
    public let acceptingDaaScore: UInt64
    /// What the indexer stores and hex-encodes: `message_payload`, `message` or `stashed_data`.
    public let body: [UInt8]

    public init(
        operation: Operation, root: KasiaRoot = .ciphMsg, txID: [UInt8], sender: KaspaAddress?, receiver: KaspaAddress?,
        amount: UInt64?,
        blockTime: UInt64, acceptingBlock: [UInt8], acceptingDaaScore: UInt64, body: [UInt8]
    ) {
        self.operation = operation
        self.root = root
        self.txID = txID
        self.sender = sender
        self.receiver = receiver
        self.amount = amount
        self.blockTime = blockTime
        self.acceptingBlock = acceptingBlock
        self.acceptingDaaScore = acceptingDaaScore
        self.body = body
    }
}
