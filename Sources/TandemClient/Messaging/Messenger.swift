public import ChatHistory
public import ChatTimeline
import Contacts
public import Foundation
public import KasiaProtocol
public import KaspaCrypto
import RoutingStore
public import TandemAPI
import TandemBasics

/// The messaging service of one profile (issue 11 item 4): routing decides aliases, the cipher
/// seals and opens, the relay carries signed payloads, and history and contacts keep the result.
///
/// An actor, so one profile's sends, syncs and stream rows are applied one at a time and the
/// routing state read for a decision is the one written after it.
public actor Messenger {
    public nonisolated let profile: Profile
    /// How payloads travel: a Tandem relay or the Kaspa network (``MessageTransport``).
    public nonisolated let transport: any MessageTransport
    /// The kasia-indexer reads: the relay's `/kasia` routes, or a Kaspa profile's indexer. A
    /// Kaspa profile without an indexer has a reader of its profile directory, which answers
    /// every read with a transport error (history then comes from the chain walk alone).
    public nonisolated let relay: RelayClient
    let key: PrivateKey
    /// This wallet's Schnorr address on the transport's network, the sender of every payload.
    public nonisolated let address: KaspaAddress
    let wallet: ContactAddress
    let routing: RoutingStore
    let history: ChatHistoryStore
    let contacts: ContactsStore
    var cursors: RelaySyncCursors
    /// Handshakes applied in this session (they have no history row to de-duplicate by).
    var appliedHandshakes: Set<String> = []

    /// KaChat's handshake amount: 0.2 KAS to the peer (kasia-protocol §12).
    public static let handshakeAmountSompi: UInt64 = 20_000_000
    /// The relay's payload cap (issue 11 item 1).
    public static let maximumPayloadBytes = 10 * 1024

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
        relay = transport.indexer ?? RelayClient(indexer: profile.directory, transport: URLSessionTransport())
        key = try profile.walletKey()
        address = KaspaAddress(publicKey: key.xOnlyPublicKey, network: transport.network)
        wallet = ContactAddress(address)
        routing = try profile.openRouting()
        history = try profile.openChatHistory()
        contacts = try profile.openContacts()
        do { cursors = try RelaySyncCursors.load(from: profile.url(.relayCursors)) } catch {
            throw MessagingError.storage("\(profile.url(.relayCursors).path): \(error)")
        }
    }

    var nowMs: Int64 { profile.clock.now.rawValue }

    // MARK: Conversations

    /// Sends a handshake to `peer` as the routing policy says (kasia-protocol §4–§7, seed 000
    /// §4.4), stashes it for our other devices (`self_stash:saved_handshake`, §5.4) and adds
    /// the contact. Returns the handshake's receipt.
    @discardableResult
    public func startConversation(with peer: KaspaAddress) async throws -> RelayReceipt {
        let policy = try routing.policy()
        var state = try routingState(for: peer)
        let isResponse = try contacts.contact(ContactAddress(peer), wallet: wallet)?.isAutoAdded ?? false
        let handshake = state.handshake(
            policy: policy, isResponse: isResponse, timestampMs: nowMs, conversationID: Self.conversationID())
        let sealed = try seal(handshake.jsonText, to: peer)
        let receipt = try await submit(
            KasiaPayload.handshake(sealed: sealed).encoded, receiver: peer, amount: Self.handshakeAmountSompi)
        state.recordHandshakeSent(handshake)
        try routing.save([state])
        try recordHandshake(
            txID: receipt.txID, blockTime: receipt.blockTime, peer: peer, direction: .outgoing,
            placeholder: Self.handshakeSentPlaceholder)
        let saved = SavedHandshake(
            partnerAddress: peer, isResponse: isResponse, timestampMilliseconds: nowMs, alias: handshake.alias,
            theirAlias: state.legacyIncomingAliases.min())
        let stash = try seal(saved.jsonText(policy: policy.selfStashWritePolicy), to: address)
        try await submit(KasiaPayload.selfStash(scope: KasiaPayload.savedHandshakeScope, sealed: stash).encoded)
        _ = try contacts.add(ContactAddress(peer), wallet: wallet)
        return receipt
    }

    /// Sends `text` to `peer`: a pending row first, then the relay's `tx_id` and block time
    /// promote the same row to sent (kasia-protocol §9). A refused or failed submission leaves
    /// the row `failed`, to be retried with ``retry(_:)`` or ``resendUnsent()``, which send the
    /// same signed submission again (``RelayOutbox``).
    ///
    /// When the composer warns that the peer may not receive it (``composerWarning(for:)``), the
    /// message is refused with ``MessagingError/peerMayNotReceive(address:warning:)`` unless
    /// `force` is set. `discrete` starts a conversation without a handshake (seed 000 §1.4): both
    /// sides derive the aliases, nothing is paid; it implies `force`.
    @discardableResult
    public func send(_ text: String, to peer: KaspaAddress, force: Bool = false, discrete: Bool = false) async throws
        -> StoredMessage
    {
        guard !text.isEmpty else { throw MessagingError.invalidMessage("the message is empty") }
        let alias = try await sendAlias(for: peer, force: force || discrete, discrete: discrete)
        let now = nowMs
        let pending = StoredMessage(
            id: MessageID(UUID()), conversation: ConversationID(peer.description), txID: nil,
            blockTime: UInt64(clamping: now), timestamp: now, status: .pending, direction: .outgoing, kind: .text,
            body: Data(text.utf8))
        try history.save(pending)
        return try await deliver(pending, text: text, alias: alias, to: peer)
    }

    /// Submits a failed (or stuck pending) outgoing row again, under the same UUID: the parked
    /// submission when there is one, else the text sealed anew.
    @discardableResult
    public func retry(_ id: MessageID) async throws -> StoredMessage {
        guard let row = try history.message(id), row.direction == .outgoing, row.txID == nil,
            let body = row.body, let text = String(data: body, encoding: .utf8),
            let peer = try? KaspaAddress(row.conversation.rawValue)
        else { throw MessagingError.invalidMessage("no unsent outgoing message \(id)") }
        let kept: RelayReceipt?
        do { kept = try await transport.resubmit(id) } catch {
            try markFailed(row)
            throw error
        }
        if let kept { return try await recordSent(row, receipt: kept, to: peer) }
        // Retrying is the sender's choice made again: a warning no longer holds it back.
        let alias = try await sendAlias(for: peer, force: true, discrete: false)
        return try await deliver(row, text: text, alias: alias, to: peer)
    }

    /// Seals `text` for `row` and submits it through the transport, which may keep the signed
    /// submission so a resend is byte-identical (the relay's ``RelayOutbox``). A failure leaves
    /// the row `failed`.
    private func deliver(_ row: StoredMessage, text: String, alias: Alias, to peer: KaspaAddress) async throws
        -> StoredMessage
    {
        let receipt: RelayReceipt
        do {
            let sealed = try seal(text, to: peer)
            let payload = KasiaPayload.contextualMessage(alias: alias, sealed: sealed, encoding: .base64).encoded
            receipt = try await transport.submit(OutgoingPayload(bytes: payload), for: row.id)
        } catch {
            try markFailed(row)
            throw error
        }
        return try await recordSent(row, receipt: receipt, to: peer)
    }

    private func recordSent(_ row: StoredMessage, receipt: RelayReceipt, to peer: KaspaAddress) async throws
        -> StoredMessage
    {
        let sent = try record(row, receipt: receipt, to: peer)
        try await transport.acknowledge(row.id)
        return sent
    }

    /// The sent row in place of the pending one, and the contact's last message time.
    private func record(_ row: StoredMessage, receipt: RelayReceipt, to peer: KaspaAddress) throws -> StoredMessage {
        try history.promote(row.id, txID: TxID(receipt.txID), blockTime: receipt.blockTime, status: .sent)
        try contacts.recordMessage(
            from: ContactAddress(peer), wallet: wallet, at: UnixMillis(Int64(clamping: receipt.blockTime)))
        // The tx id's first row wins (kasia-protocol §9): another process of this profile
        // (a running `listen`) may have stored the relay's copy before this promote.
        return try history.message(txID: TxID(receipt.txID)) ?? history.message(row.id) ?? row
    }

    private func markFailed(_ row: StoredMessage) throws {
        var failed = try history.message(row.id) ?? row
        guard failed.txID == nil else { return }
        failed.status = .failed
        try history.save(failed)
    }

    /// The composer's alias for `peer`, sending a handshake first when routing asks for one
    /// (seed 000 Phase 4), or, `discrete`, deriving the conversation without one. A warning
    /// holds the send back unless `force`.
    private func sendAlias(for peer: KaspaAddress, force: Bool, discrete: Bool) async throws -> Alias {
        let policy = try routing.policy()
        if try routing.fetchOne(peer) == nil {
            if discrete { try startDiscreteConversation(with: peer) } else { try await startConversation(with: peer) }
        }
        switch try routingState(for: peer).composerState(policy: policy) {
        case .ready(let alias): return alias
        case .warning(let warning, let alias):
            guard force else { throw MessagingError.peerMayNotReceive(address: peer.description, warning: warning) }
            return alias
        case .needsHandshake:
            try await startConversation(with: peer)
            switch try routingState(for: peer).composerState(policy: policy) {
            case .ready(let alias), .warning(_, let alias), .needsHandshake(let alias): return alias
            }
        }
    }

    /// A conversation without a handshake (seed 000 §1.4 "discrete"): the deterministic pair is
    /// derived here and by the peer, the contact is added, nothing goes on chain.
    private func startDiscreteConversation(with peer: KaspaAddress) throws {
        try routing.save([try routingState(for: peer)])
        _ = try contacts.add(ContactAddress(peer), wallet: wallet)
    }

    /// What the composer warns about for `peer` now, if anything (seed 000 Phase 4): the UI shows
    /// it, and ``send(_:to:force:discrete:)`` needs `force` to send anyway. Nil for a peer with no
    /// conversation yet (sending starts one with a handshake).
    public func composerWarning(for peer: KaspaAddress) throws -> ComposerWarning? {
        guard let state = try routing.fetchOne(peer) else { return nil }
        if case .warning(let warning, _) = state.composerState(policy: try routing.policy()) { return warning }
        return nil
    }

    // MARK: Reading

    /// The newest `limit` rows with `peer`, or those strictly older than `before`, oldest first.
    public func history(with peer: KaspaAddress, limit: Int = 50, before: MessageKey? = nil) throws -> MessagePage {
        let conversation = ConversationID(peer.description)
        if let before { return try history.page(in: conversation, olderThan: before, limit: limit) }
        return try history.newestPage(in: conversation, limit: limit)
    }

    /// Live contacts with their newest message and unread count, most recent activity first.
    public func conversations() throws -> [ConversationSummary] {
        try contacts.contacts(wallet: wallet).map { contact in
            let conversation = ConversationID(contact.address.description)
            let newest = try history.newestPage(in: conversation, limit: 1).rows.last
            let answered = try history.hasOutgoing(in: conversation)
            return ConversationSummary(
                contact: contact, lastMessage: newest, unread: try history.unreadCount(in: conversation),
                awaitsAnswer: contact.isAutoAdded && !answered)
        }.sorted {
            ($0.lastActivity, $0.contact.address.description) > ($1.lastActivity, $1.contact.address.description)
        }
    }

    // MARK: Shared steps

    func routingState(for peer: KaspaAddress) throws -> ConversationRoutingState {
        if let state = try routing.fetchOne(peer) { return state }
        do {
            return try ConversationRoutingState(contact: peer, privateKey: key, now: profile.clock.now)
        } catch {
            throw MessagingError.invalidPeer(address: peer.description, reason: error.description)
        }
    }

    func seal(_ text: String, to recipient: KaspaAddress) throws -> [UInt8] {
        do { return try KasiaCipher.seal(text, to: recipient) } catch {
            throw MessagingError.invalidPeer(address: recipient.description, reason: error.description)
        }
    }

    /// Submits `payload` through the transport (handshakes and self-stashes: nothing kept).
    @discardableResult
    func submit(_ payload: [UInt8], receiver: KaspaAddress? = nil, amount: UInt64? = nil) async throws -> RelayReceipt {
        try Self.checkSize(payload)
        return try await transport.submit(OutgoingPayload(bytes: payload, receiver: receiver, amount: amount), for: nil)
    }

    static func checkSize(_ payload: [UInt8]) throws {
        guard payload.count <= maximumPayloadBytes else {
            throw MessagingError.invalidMessage(
                "the message is too long for one relay payload (\(payload.count) > 10240 bytes)")
        }
    }

    /// KaChat's conversation id: the first 12 hex characters of a fresh UUID (§5.1).
    static func conversationID() -> String {
        String(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12))
    }
}
