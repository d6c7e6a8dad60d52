public import ChatTimeline
public import KaspaCrypto
public import KaspaNode
import TandemAPI
public import TandemWallet

/// How a ``Messenger``'s payloads travel (issue 24 item 3; narrowed in issue 46 item 3): a Tandem
/// relay (``RelayMessageTransport``) or the Kaspa network through a node
/// (``KaspaMessageTransport``). The messenger seals, routes and stores; every transport submits
/// a payload, streams the rows of a watched set, and names the kasia-indexer that history pages
/// are read from. What only one side does is a protocol of its own: the relay keeps what it
/// sent until the messenger acknowledges it (``OutboxTransport``); the chain has rows of its own
/// to read, reorgs and payments (``ChainTransport``).
///
/// Rows come as ``IndexerEvent`` whatever the transport: the relay's stream carries them so, and
/// the Kaspa transport turns each accepted transaction's Kasia payload into the same indexer row
/// (kasia-protocol §10), so one ingest serves both.
public protocol MessageTransport: Sendable {
    /// The network this profile's addresses are encoded for (the relay: mainnet).
    var network: KaspaNetwork { get }

    /// The kasia-indexer reads for history, `sync` and `restore`, if there is one.
    var indexer: KasiaIndexerClient? { get }

    /// Submits `payload` (a handshake, a self-stash; nothing kept for a resend).
    func submit(_ payload: OutgoingPayload) async throws -> SubmissionReceipt

    /// The live rows for `watching`, resuming after `resumePoint` (a relay position in block-time
    /// milliseconds) where the transport can.
    func live(watching: MessageWatchSet, resumePoint: UInt64) -> AsyncThrowingStream<IndexerEvent, any Error>
}

/// A transport that keeps each message's submission until the messenger has recorded its
/// receipt, so a resend after a lost answer or a crash sends the same bytes (the relay's outbox,
/// ``RelayOutbox``).
public protocol OutboxTransport: MessageTransport {
    /// Submits `payload` for `message`, keeping it until ``acknowledge(_:)``.
    func submit(_ payload: OutgoingPayload, keeping message: MessageID) async throws -> SubmissionReceipt

    /// Sends `message`'s kept submission again; nil when nothing is kept for it.
    func resubmit(_ message: MessageID) async throws -> SubmissionReceipt?

    /// The messages whose submissions are kept and not yet acknowledged.
    func unacknowledged() async throws -> [MessageID]

    /// The kept message whose submission has `txID`, if any.
    func keptMessage(txID: String) async throws -> MessageID?

    /// Forgets `message`'s kept submission: its receipt is recorded.
    func acknowledge(_ message: MessageID) async throws
}

/// A transport over a chain (the Kaspa network): rows of its own to read beyond any indexer,
/// blocks a reorg takes back, and money.
public protocol ChainTransport: MessageTransport {
    /// Rows the transport itself can read since it last did (the Kaspa chain walk and mempool),
    /// oldest first, handed to `deliver` a batch at a time: once `deliver` returns, the batch's
    /// rows are stored and the transport remembers how far it read (a crash before that re-reads
    /// them, and `tx_id` checks drop the overlap), so a long catch-up never holds all its rows.
    /// Answers why the reading stopped before the end, if it did (issue 50 item 3; the next
    /// catch-up goes on from there), and how much it read. `progress` hears of each page walked
    /// (issue 51 item 9).
    func catchUp(
        watching: MessageWatchSet, progress: ReadProgressHandler?,
        deliver: @Sendable ([IndexerEvent]) async throws -> Void
    ) async throws -> ChainCatchUp

    /// Forgets how far ``catchUp(watching:progress:deliver:)`` has read, so the next one starts from the
    /// oldest data the transport reaches (`restore`).
    func rewind() async throws

    /// The ids of transactions whose acceptance a reorg has undone and no later walk has seen
    /// again (the Kaspa chain's `removedChainBlockHashes`), taken after the rows read so far are
    /// applied: their rows go back from confirmed to sent until a block accepts them again.
    func takeUnaccepted() async -> Set<String>

    /// Pays `payload.amount` sompi to `payload.receiver`, the payload (a sealed memo) riding in
    /// the same transaction (issue 43 item 3). The fee keeps within `approval`.
    func pay(_ payload: OutgoingPayload, approval: FeeApproval) async throws -> WalletSendResult

    /// The fee submitting `payload` would pay now, built and signed but not sent (issue 51
    /// item 3): what a person is told before agreeing to spend.
    func estimateFee(_ payload: OutgoingPayload) async throws -> UInt64
}

/// What a transport answers for a submitted payload: its transaction id and the block time it
/// is ordered by (the relay's commit time, or the sender's clock for a Kaspa transaction until
/// a block accepts it).
public struct SubmissionReceipt: Sendable, Equatable {
    public var txID: String
    public var blockTime: UInt64
    /// What the transaction paid the network, in sompi; nil where nothing is paid (a relay).
    public var fee: UInt64?
    /// What it paid another address (a handshake's 0.2 KAS), in sompi; nil for a self-spend or a relay.
    public var amountSompi: UInt64?

    public init(txID: String, blockTime: UInt64, fee: UInt64? = nil, amountSompi: UInt64? = nil) {
        self.txID = txID
        self.blockTime = blockTime
        self.fee = fee
        self.amountSompi = amountSompi
    }
}

/// One Kasia payload to submit: a handshake pays `amount` to `receiver`; anything else is a
/// self-spend (kasia-protocol §12).
public struct OutgoingPayload: Sendable, Equatable {
    public var bytes: [UInt8]
    public var receiver: KaspaAddress?
    public var amount: UInt64?

    public init(bytes: [UInt8], receiver: KaspaAddress? = nil, amount: UInt64? = nil) {
        self.bytes = bytes
        self.receiver = receiver
        self.amount = amount
    }
}

/// What the live rows follow: every alias we read or send on, our address, and each contact's
/// address (the Kaspa transport subscribes to contacts' UTXO changes; the relay reads aliases).
/// Contacts with real-time updates turned off (seed 002, `realtimeUpdatesDisabled`) are
/// `quietContacts`: not followed live, read on sync only; their incoming aliases are not in
/// `aliasHexes`.
public struct MessageWatchSet: Sendable, Equatable {
    public var aliasHexes: [String]
    public var addresses: [String]
    public var contacts: [KaspaAddress]
    public var quietContacts: [KaspaAddress]

    public init(
        aliasHexes: [String], addresses: [String], contacts: [KaspaAddress], quietContacts: [KaspaAddress] = []
    ) {
        self.aliasHexes = aliasHexes
        self.addresses = addresses
        self.contacts = contacts
        self.quietContacts = quietContacts
    }
}
