public import ChatHistory
public import ChatTimeline
public import Contacts
public import Foundation
import KasiaIndex
public import KasiaProtocol
public import KaspaCrypto
public import KaspaNode
import RoutingStore
import TandemAPI
public import TandemAccounts
import TandemBasics
public import TandemProfile
public import TandemWallet

/// The messaging service of one profile (issue 11 item 4; split in issue 24 item 3): routing
/// decides aliases, the cipher seals and opens, a ``MessageTransport`` (the relay or the Kaspa
/// network) carries the payloads, and history and contacts keep the result.
///
/// A thin actor over two parts: ``MessageSender`` (seal, submit, outbox, retry) and
/// ``MessageIngest`` (a row and the routing state → history rows, contact and routing updates,
/// pure). Being an actor, one profile's sends, syncs and stream rows are applied in turn.
public actor Messenger {
    public nonisolated let profile: Profile
    /// How payloads travel: a Tandem relay or the Kaspa network (``MessageTransport``).
    public nonisolated let transport: any MessageTransport
    /// The kasia-indexer reads: the relay's `/kasia` routes, or a Kaspa profile's indexer. A
    /// Kaspa profile without an indexer has a reader of its profile directory, which answers
    /// every read with a transport error (history then comes from the chain walk alone).
    public nonisolated let indexer: KasiaIndexerClient
    let key: PrivateKey
    /// This wallet's Schnorr address on the transport's network, the sender of every payload.
    public nonisolated let address: KaspaAddress
    let wallet: ContactAddress
    let routing: RoutingStore
    let history: ChatHistoryStore
    let contacts: ContactsStore
    /// Seals, submits and records sends (``MessageSender``).
    let sender: MessageSender
    var cursors: RelaySyncCursors
    /// Handshakes applied in this session (they have no history row to de-duplicate by).
    var appliedHandshakes: Set<String> = []
    /// What the transport's catch-up delivered so far, per running ``sync()``: a screen's
    /// heartbeat and its live stream may sync at once, and each keeps its own arrivals.
    var caughtUp: [Int: [IncomingMessage]] = [:]
    /// The key of the next ``sync()``'s arrivals in ``caughtUp``.
    var nextCatchUp = 0
    /// Why the last ``sync()`` stopped reading the chain before its end, if it did (issue 50
    /// item 3): the next sync goes on from there. Nil when it read to the end.
    public internal(set) var lastCatchUpStop: ChainWalk.Stop?

    /// KaChat's handshake amount: 0.2 KAS to the peer (kasia-protocol §12).
    public static let handshakeAmountSompi: UInt64 = 20_000_000
    /// The relay's payload cap (issue 11 item 1).
    public static let maximumPayloadBytes = KasiaIndexRow.maximumPayloadBytes

    /// Opens the profile's wallet key and stores, talking to the relay at `server`.
    public init(
        profile: Profile, server: URL, transport: any HTTPTransport = URLSessionTransport(),
        streamTransport: any EventStreamTransport = URLSessionEventStreamTransport()
    ) throws {
        try self.init(
            profile: profile,
            transport: RelayMessageTransport(
                profile: profile, server: server, transport: transport, streamTransport: streamTransport))
    }

    /// Opens the profile's wallet key and stores, sending and reading through `transport`.
    public init(profile: Profile, transport: any MessageTransport) throws {
        self.profile = profile
        self.transport = transport
        indexer = transport.indexer ?? KasiaIndexerClient(indexer: profile.directory, transport: URLSessionTransport())
        key = try profile.walletKey()
        address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: transport.network)
        wallet = ContactAddress(address)
        routing = try profile.openRouting()
        history = try profile.openChatHistory()
        contacts = try profile.openContacts()
        sender = MessageSender(
            transport: transport, outbox: transport as? any OutboxTransport, chain: transport as? any ChainTransport,
            key: key, address: address, wallet: wallet, routing: routing, history: history, contacts: contacts,
            clock: profile.clock)
        do { cursors = try RelaySyncCursors.load(from: profile.url(.relayCursors)) } catch {
            throw MessagingError.storage("\(profile.url(.relayCursors).path): \(error)")
        }
    }

    // MARK: Sending

    /// Sends a handshake to `peer` as the routing policy says (kasia-protocol §4–§7, seed 000
    /// §4.4), stashes it for our other devices (`self_stash:saved_handshake`, §5.4) and adds
    /// the contact. Returns the handshake's receipt.
    @discardableResult
    public func startConversation(with peer: KaspaAddress) async throws -> SubmissionReceipt {
        try await handshake(with: peer).receipt
    }

    /// ``startConversation(with:)``, answering what it cost on the Kaspa network as well (the
    /// handshake's 0.2 KAS and the fees of it and its saved copy; none on a relay).
    public func handshake(with peer: KaspaAddress) async throws -> ConversationStarted {
        var spends: [ChainSpend] = []
        let receipt = try await sender.startConversation(with: peer, spends: &spends)
        return ConversationStarted(receipt: receipt, spends: spends)
    }

    /// Sends `text` to `peer`: a pending row first, then the transport's `tx_id` and block time
    /// promote the same row to sent (kasia-protocol §9). A refused or failed submission leaves
    /// the row `failed`, to be retried with ``retry(_:)`` or ``resendUnsent()``, which send the
    /// same signed submission again where the transport keeps it (``RelayOutbox``).
    ///
    /// When the composer warns that the peer may not receive it (``composerWarning(for:)``), the
    /// message is refused with ``MessagingError/peerMayNotReceive(address:warning:)`` unless
    /// `force` is set. `discrete` starts a conversation without a handshake (seed 000 §1.4): both
    /// sides derive the aliases, nothing is paid; it implies `force`.
    @discardableResult
    public func send(_ text: String, to peer: KaspaAddress, force: Bool = false, discrete: Bool = false) async throws
        -> StoredMessage
    {
        try await sendMessage(text, to: peer, force: force, discrete: discrete).message
    }

    /// ``send(_:to:force:discrete:)``, answering what it cost on the Kaspa network as well: a
    /// handshake first, when one was needed, and the message's own transaction (issue 51 item 3).
    public func sendMessage(_ text: String, to peer: KaspaAddress, force: Bool = false, discrete: Bool = false)
        async throws -> MessageSent
    {
        var spends: [ChainSpend] = []
        let message = try await sender.send(text, to: peer, force: force, discrete: discrete, spends: &spends)
        return MessageSent(message: message, spends: spends)
    }

    /// What sending `text` to `peer` would cost on the Kaspa network now, before anything is sent
    /// (issue 51 item 3): whether a handshake goes first (0.2 KAS to the peer) and the fees at the
    /// node's estimate. A nil `text` quotes ``handshake(with:)`` alone. Nil on a relay, where
    /// nothing is paid.
    public func quote(_ text: String?, to peer: KaspaAddress, discrete: Bool = false) async throws -> SendQuote? {
        try await sender.quote(text, to: peer, discrete: discrete)
    }

    /// Submits a failed (or stuck pending) outgoing row again, under the same UUID: the parked
    /// submission when there is one, else the text sealed anew.
    @discardableResult
    public func retry(_ id: MessageID) async throws -> StoredMessage {
        try await retryMessage(id).message
    }

    /// ``retry(_:)``, answering what it cost on the Kaspa network as well.
    public func retryMessage(_ id: MessageID) async throws -> MessageSent {
        var spends: [ChainSpend] = []
        let message = try await sender.retry(id, spends: &spends)
        return MessageSent(message: message, spends: spends)
    }

    /// Stores `text` to `peer` as a pending outgoing row and returns it, without submitting:
    /// a screen shows the row at once, then ``retry(_:)`` delivers it under the same id
    /// (pending → sent, or failed; kasia-protocol §9).
    public func queueMessage(_ text: String, to peer: KaspaAddress) throws -> StoredMessage {
        try sender.queue(text, to: peer)
    }

    /// Sends every outgoing message the transport has not had acknowledged, oldest first, each
    /// as the same signed submission as before (issue 11 "Tests": a relay SIGKILLed and
    /// restarted mid-conversation). Returns the rows now sent; a row whose submission fails
    /// again stays `failed` and keeps its place, and the first error is thrown after the others
    /// were tried.
    @discardableResult
    public func resendUnsent() async throws -> [StoredMessage] {
        try await sender.resendUnsent()
    }

    /// Pays `amountSompi` to `peer` with `memo` (at most 140 characters, sealed to the peer) on the
    /// Kaspa network (issue 43 item 3); a relay profile is refused with
    /// ``MessagingError/paymentNeedsKaspa``. The conversation shows it as an outgoing payment.
    /// The fee keeps within `approval` (issue 50 item 1).
    public func pay(
        _ amountSompi: UInt64, to peer: KaspaAddress, memo: String = "", approval: FeeApproval = FeeApproval()
    ) async throws -> PaymentSent {
        try await sender.pay(amountSompi, to: peer, memo: memo, approval: approval)
    }

    /// What the composer warns about for `peer` now, if anything (seed 000 Phase 4): the UI shows
    /// it, and ``send(_:to:force:discrete:)`` needs `force` to send anyway. Nil for a peer with no
    /// conversation yet (sending starts one with a handshake).
    public func composerWarning(for peer: KaspaAddress) throws -> ComposerWarning? {
        try sender.composerWarning(for: peer)
    }

    // MARK: Reading

    /// The newest `limit` rows with `peer`, or those strictly older than `before`, oldest first.
    public func history(with peer: KaspaAddress, limit: Int = 50, before: MessageKey? = nil) throws -> MessagePage {
        let conversation = ConversationID(peer.description)
        if let before { return try history.page(in: conversation, olderThan: before, limit: limit) }
        return try history.newestPage(in: conversation, limit: limit)
    }

    /// The `limit` rows with `peer` strictly newer than `after`, oldest first: a screen that let
    /// its newest rows go (to bound its memory) reads them back with it.
    public func history(with peer: KaspaAddress, limit: Int = 50, after: MessageKey) throws -> MessagePage {
        try history.page(in: ConversationID(peer.description), newerThan: after, limit: limit)
    }

    /// Live contacts with their newest message and unread count, most recent activity first.
    public func conversations() throws -> [ConversationSummary] {
        try contacts.contacts(wallet: wallet).map(summary).sorted {
            ($0.lastActivity, $0.contact.address.description) > ($1.lastActivity, $1.contact.address.description)
        }
    }

    /// The one line of the list for `peer`; nil when `peer` is not a contact (never added, or
    /// deleted). A screen that learns one conversation changed redraws that line alone.
    public func conversation(with peer: KaspaAddress) throws -> ConversationSummary? {
        try liveContact(peer).map(summary)
    }

    /// `peer`'s contact when it is live (added, and not deleted).
    func liveContact(_ peer: KaspaAddress) throws -> Contact? {
        guard let record = try contacts.record(for: ContactKey(wallet: wallet, address: ContactAddress(peer))),
            !record.isPurged, record.isAlive
        else { return nil }
        return record.contact
    }

    private func summary(_ contact: Contact) throws -> ConversationSummary {
        let conversation = ConversationID(contact.address.description)
        let newest = try history.newestPage(in: conversation, limit: 1).rows.last
        let answered = try history.hasOutgoing(in: conversation)
        return ConversationSummary(
            contact: contact, lastMessage: newest, unread: try history.unreadCount(in: conversation),
            awaitsAnswer: contact.isAutoAdded && !answered)
    }

    // MARK: Shared steps

    static func checkSize(_ payload: [UInt8]) throws {
        guard payload.count <= maximumPayloadBytes else {
            throw MessagingError.invalidMessage(
                "the message is too long for one relay payload (\(payload.count) > 10240 bytes)")
        }
    }
}
