public import KasiaProtocol

/// One row of a kasia-indexer (kasia-protocol §4, §10, §16): the one model of it that the
/// server's `/kasia` reads and chain ingest, the simulated node's indexer and the client's chain
/// walk share (issue 43 item 7). Which transaction becomes which row is
/// ``init(transaction:fallbackTime:acceptance:network:knownSender:)``; the JSON a route answers is
/// ``writeJSON(into:presentation:includingRoot:)``; which rows a route selects is
/// ``KasiaIndexSelection``, read from a request by ``KasiaIndexRequest``.
///
/// The payload is filed by ``KasiaIndexedPayload`` as KaChat's indexer fork files it: both roots,
/// the web's `payment:` and KaChat's `pay:`; broadcasts and unknown operations are not indexed.
public struct KasiaIndexRow: Sendable, Hashable {
    /// The indexer's table: handshakes, contextual messages, payments or self-stashes.
    public typealias Kind = KasiaIndexedPayload.Kind

    /// Where the row's transaction was accepted: the chain block and its DAA score.
    public struct Acceptance: Sendable, Hashable {
        /// 64 lowercase hex characters.
        public var block: String
        public var daaScore: UInt64

        public init(block: String, daaScore: UInt64) {
            self.block = block
            self.daaScore = daaScore
        }
    }

    public var kind: Kind
    /// The root that carried the payload (kasia-protocol §16).
    public var root: KasiaRoot
    /// 64 lowercase hex characters.
    public var txID: String
    /// The address of the first input's spent output, in canonical text; nil while unknown (an
    /// indexer that has not resolved it, a node that did not say).
    public var sender: String?
    /// The first output's address, kept for handshakes and payments (kasia-protocol §10); nil for
    /// the other kinds, and when the first output is missing or not a standard address.
    public var receiver: String?
    /// The first output's value in sompi, for handshakes and payments; 0 for the other kinds.
    public var amount: UInt64
    /// Lowercase hex of the alias of a contextual message or the scope of a self-stash, as written
    /// (cut to what the indexer keeps); empty for the other kinds.
    public var tag: String
    /// What the indexer stores and serves as hex: the bytes after the operation's prefix.
    public var body: [UInt8]
    /// Milliseconds: the time of the block that included the transaction.
    public var blockTime: UInt64
    /// Nil while the transaction is not accepted (a relayed row, a mempool row).
    public var acceptance: Acceptance?

    public init(
        kind: Kind, root: KasiaRoot, txID: String, sender: String?, receiver: String?, amount: UInt64, tag: String,
        body: [UInt8], blockTime: UInt64, acceptance: Acceptance?
    ) {
        self.kind = kind
        self.root = root
        self.txID = txID
        self.sender = sender
        self.receiver = receiver
        self.amount = amount
        self.tag = tag
        self.body = body
        self.blockTime = blockTime
        self.acceptance = acceptance
    }
}
