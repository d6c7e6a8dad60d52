public import ChatHistory
public import ChatTimeline
public import Contacts
public import Foundation
public import KasiaProtocol
public import KaspaCrypto
public import KaspaTransaction
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
    public nonisolated let relay: RelayClient
    let stream: RelayEventStream
    let key: PrivateKey
    /// This wallet's Schnorr address (mainnet), the relay sender of every submission.
    public nonisolated let address: KaspaAddress
    let wallet: ContactAddress
    let routing: RoutingStore
    let history: ChatHistoryStore
    let contacts: ContactsStore
    var cursors: RelaySyncCursors
    /// Submissions sent but not yet acknowledged, resent byte for byte (``RelayOutbox``).
    var outbox: RelayOutbox
    /// Handshakes applied in this session (they have no history row to de-duplicate by).
    var appliedHandshakes: Set<String> = []
    /// When set, submissions are signed Kaspa transactions spending these UTXOs (issue 15 item 4).
    var kaspaUTXOs: [KaspaUtxoEntry]?

    /// KaChat's handshake amount: 0.2 KAS to the peer (kasia-protocol §12).
    public static let handshakeAmountSompi: UInt64 = 20_000_000
    /// The relay's payload cap (issue 11 item 1).
    public static let maximumPayloadBytes = 10 * 1024

    /// Opens the profile's wallet key and stores, talking to the relay at `server`.
    public init(
        profile: Profile, server: URL, transport: any HTTPTransport = URLSessionTransport(),
        streamTransport: any EventStreamTransport = URLSessionEventStreamTransport()
    ) throws {
        self.profile = profile
        relay = RelayClient(server: server, transport: transport)
        stream = RelayEventStream(server: server, transport: streamTransport, clock: profile.clock)
        key = try profile.walletKey()
        address = KaspaAddress(publicKey: key.xOnlyPublicKey)
        wallet = ContactAddress(address)
        routing = try profile.openRouting()
        history = try profile.openChatHistory()
        contacts = try profile.openContacts()
        do { cursors = try RelaySyncCursors.load(from: profile.url(.relayCursors)) } catch {
            throw MessagingError.storage("\(profile.url(.relayCursors).path): \(error)")
        }
        do { outbox = try RelayOutbox.load(from: profile.url(.relayOutbox)) } catch {
            throw MessagingError.storage("\(profile.url(.relayOutbox).path): \(error)")
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
        if kaspaUTXOs != nil { return try await deliverTransaction(pending, text: text, alias: alias, to: peer) }
        let submission = try await park(pending, text: text, alias: alias, to: peer)
        return try await deliver(pending, submission: submission, to: peer)
    }

    /// Submits a failed (or stuck pending) outgoing row again, under the same UUID: the parked
    /// submission when there is one, else the text sealed anew.
    @discardableResult
    public func retry(_ id: MessageID) async throws -> StoredMessage {
        guard let row = try history.message(id), row.direction == .outgoing, row.txID == nil,
            let body = row.body, let text = String(data: body, encoding: .utf8),
            let peer = try? KaspaAddress(row.conversation.rawValue)
        else { throw MessagingError.invalidMessage("no unsent outgoing message \(id)") }
        if outbox.entries[id.uuid.uuidString] == nil { try reloadOutbox() }
        if let submission = outbox.entries[id.uuid.uuidString] {
            return try await deliver(row, submission: submission, to: peer)
        }
        // Retrying is the sender's choice made again: a warning no longer holds it back.
        let alias = try await sendAlias(for: peer, force: true, discrete: false)
        if kaspaUTXOs != nil { return try await deliverTransaction(row, text: text, alias: alias, to: peer) }
        let submission = try await park(row, text: text, alias: alias, to: peer)
        return try await deliver(row, submission: submission, to: peer)
    }

    /// Kaspa-transaction mode (issue 15): no outbox, since a rebuilt transaction spending the same
    /// UTXOs has the same id whatever its signatures, so the relay keeps one row.
    private func deliverTransaction(_ row: StoredMessage, text: String, alias: Alias, to peer: KaspaAddress)
        async throws -> StoredMessage
    {
        let receipt: RelayReceipt
        do {
            let sealed = try seal(text, to: peer)
            receipt = try await submit(
                KasiaPayload.contextualMessage(alias: alias, sealed: sealed, encoding: .base64).encoded)
        } catch {
            try markFailed(row)
            throw error
        }
        return try record(row, receipt: receipt, to: peer)
    }

    /// Seals and signs `text` for `row` and keeps the submission in the outbox before it goes
    /// out, so a relay that dies before answering is sent the same bytes again.
    private func park(_ row: StoredMessage, text: String, alias: Alias, to peer: KaspaAddress) async throws
        -> RelaySubmission
    {
        do {
            let sealed = try seal(text, to: peer)
            let submission = try sign(
                KasiaPayload.contextualMessage(alias: alias, sealed: sealed, encoding: .base64).encoded)
            outbox.entries[row.id.uuid.uuidString] = submission
            try saveOutbox()
            return submission
        } catch {
            try markFailed(row)
            throw error
        }
    }

    private func deliver(_ row: StoredMessage, submission: RelaySubmission, to peer: KaspaAddress) async throws
        -> StoredMessage
    {
        let receipt: RelayReceipt
        do { receipt = try await submit(submission) } catch {
            try markFailed(row)
            throw error
        }
        let sent = try record(row, receipt: receipt, to: peer)
        try unpark(row.id)
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

    /// Signs and submits `payload` with a fresh random nonce, or as a Kaspa transaction when the
    /// messenger spends UTXOs (issue 15).
    @discardableResult
    func submit(_ payload: [UInt8], receiver: KaspaAddress? = nil, amount: UInt64? = nil) async throws -> RelayReceipt {
        if kaspaUTXOs != nil {
            try Self.checkSize(payload)
            return try await submitTransaction(payload, receiver: receiver, amount: amount)
        }
        return try await submit(try sign(payload, receiver: receiver, amount: amount))
    }

    /// Signs `payload` with the wallet key and a fresh random nonce.
    func sign(_ payload: [UInt8], receiver: KaspaAddress? = nil, amount: UInt64? = nil) throws -> RelaySubmission {
        try Self.checkSize(payload)
        var generator = SystemRandomNumberGenerator()
        do {
            return try RelaySubmission.signed(
                payload: payload, by: key, receiver: receiver, amount: amount, nonce: generator.next())
        } catch {
            throw MessagingError.signing(error.description)
        }
    }

    static func checkSize(_ payload: [UInt8]) throws {
        guard payload.count <= maximumPayloadBytes else {
            throw MessagingError.invalidMessage(
                "the message is too long for one relay payload (\(payload.count) > 10240 bytes)")
        }
    }

    /// Submits `submission`, waiting out rate limits. The same signed submission is retried:
    /// the relay answers a resubmission with the same receipt and one row (issue 11 item 1).
    @discardableResult
    func submit(_ submission: RelaySubmission) async throws -> RelayReceipt {
        try await retryingRateLimits { () async throws(RelayClientError) in try await relay.submit(submission) }
    }

    /// Runs `call`, waiting out `Retry-After` up to ``rateLimitRetries`` times.
    func retryingRateLimits(_ call: () async throws(RelayClientError) -> RelayReceipt) async throws -> RelayReceipt {
        var attempt = 0
        while true {
            do { return try await call() } catch {
                guard case .rateLimited(let seconds, _) = error, attempt < Self.rateLimitRetries else {
                    throw MessagingError.relay(error)
                }
                attempt += 1
                let wait = Duration.seconds(Int64(clamping: max(seconds ?? 1, 1)))
                try await profile.clock.sleep(until: profile.clock.now.advanced(by: wait), tolerance: nil)
            }
        }
    }

    /// How often a rate-limited submission waits out `Retry-After` before giving up.
    static let rateLimitRetries = 5

    /// KaChat's conversation id: the first 12 hex characters of a fresh UUID (§5.1).
    static func conversationID() -> String {
        String(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12))
    }
}
