public import ChatTimeline
public import KaspaCrypto
public import KaspaNode
public import TandemAPI
public import TandemWallet

/// How a ``Messenger``'s payloads travel (issue 24 item 3): a Tandem relay
/// (``RelayMessageTransport``) or the Kaspa network through a node (``KaspaMessageTransport``).
/// The messenger seals, routes and stores; the transport submits a payload, streams the rows
/// of a watched set, and names the kasia-indexer that history pages are read from.
///
/// Rows come as ``RelayEvent`` whatever the transport: the relay's stream carries them so, and
/// the Kaspa transport turns each accepted transaction's Kasia payload into the same indexer row
/// (kasia-protocol §10), so one ingest serves both.
public protocol MessageTransport: Sendable {
    /// The network this profile's addresses are encoded for (the relay: mainnet).
    var network: KaspaNetwork { get }

    /// The kasia-indexer reads for history, `sync` and `restore`, if there is one.
    var indexer: RelayClient? { get }

    /// Submits `payload`. With `message`, the transport may keep what it sent so that
    /// ``resubmit(_:)`` sends the same bytes again (the relay's outbox); ``acknowledge(_:)``
    /// forgets it once the messenger has recorded the receipt.
    func submit(_ payload: OutgoingPayload, for message: MessageID?) async throws -> RelayReceipt

    /// Sends `message`'s kept submission again; nil when nothing is kept for it.
    func resubmit(_ message: MessageID) async throws -> RelayReceipt?

    /// The messages whose submissions are kept and not yet acknowledged.
    func unacknowledged() async throws -> [MessageID]

    /// The kept message whose submission has `txID`, if any.
    func keptMessage(txID: String) async throws -> MessageID?

    /// Forgets `message`'s kept submission: its receipt is recorded.
    func acknowledge(_ message: MessageID) async throws

    /// Rows the transport itself can read since it last did (the Kaspa chain walk and mempool),
    /// oldest first, handed to `deliver` a batch at a time: once `deliver` returns, the batch's
    /// rows are stored and the transport remembers how far it read (a crash before that re-reads
    /// them, and `tx_id` checks drop the overlap), so a long catch-up never holds all its rows.
    /// Answers why the reading stopped before the end, if it did (issue 50 item 3); the next
    /// catch-up goes on from there. The relay has no rows beyond its indexer.
    func catchUp(watching: MessageWatchSet, deliver: @Sendable ([RelayEvent]) async throws -> Void) async throws
        -> ChainWalk.Stop?

    /// Forgets how far ``catchUp(watching:)`` has read, so the next one starts from the oldest
    /// data the transport reaches (`restore`).
    func rewind() async throws

    /// The live rows for `watching`, resuming after `resumePoint` (a relay position in block-time
    /// milliseconds) where the transport can.
    func live(watching: MessageWatchSet, resumePoint: UInt64) -> AsyncThrowingStream<RelayEvent, any Error>

    /// The ids of transactions whose acceptance a reorg has undone and no later walk has seen
    /// again (the Kaspa chain's `removedChainBlockHashes`), taken after the rows read so far are
    /// applied: their rows go back from confirmed to sent until a block accepts them again. The
    /// relay has none.
    func takeUnaccepted() async -> Set<String>

    /// Pays `payload.amount` sompi to `payload.receiver`, the payload (a sealed memo) riding in
    /// the same transaction (issue 43 item 3). Only money on a chain is a payment: the relay
    /// refuses with ``MessagingError/paymentNeedsKaspa``. The fee keeps within `approval`.
    func pay(_ payload: OutgoingPayload, approval: FeeApproval) async throws -> WalletSendResult
}

extension MessageTransport {
    public func takeUnaccepted() async -> Set<String> { [] }

    public func pay(_ payload: OutgoingPayload, approval: FeeApproval) async throws -> WalletSendResult {
        throw MessagingError.paymentNeedsKaspa
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
