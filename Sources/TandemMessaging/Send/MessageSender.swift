import ChatHistory
import ChatTimeline
import Contacts
import Foundation
import KasiaProtocol
import KaspaCrypto
import RoutingStore
import TandemAPI
import TandemBasics
import TandemWallet

/// The sending half of ``Messenger`` (issue 24 item 3): routing decides the alias (sending a
/// handshake first when it asks for one), the cipher seals, the transport submits (signing,
/// and keeping what it sent for a retry, is the transport's part), and history records the
/// row's way from pending to sent, or failed.
///
/// Its methods run on the caller's actor (`#isolation`): the messenger calls them, so one
/// profile's sends are applied in turn with its ingest.
struct MessageSender: Sendable {
    let transport: any MessageTransport
    /// The transport's outbox, when it keeps what it sent (the relay).
    let outbox: (any OutboxTransport)?
    /// The transport's chain side, when it has one (Kaspa): payments.
    let chain: (any ChainTransport)?
    let key: PrivateKey
    let address: KaspaAddress
    let wallet: ContactAddress
    let routing: RoutingStore
    let history: ChatHistoryStore
    let contacts: ContactsStore
    let clock: any WallClock

    var nowMs: Int64 { clock.now.rawValue }

    // MARK: Handshakes

    /// Sends a handshake to `peer` as the routing policy says (kasia-protocol §4–§7, seed 000
    /// §4.4), stashes it for our other devices (`self_stash:saved_handshake`, §5.4) and adds the
    /// contact.
    func startConversation(
        with peer: KaspaAddress, spends: inout [ChainSpend], isolation: isolated (any Actor)? = #isolation
    ) async throws -> SubmissionReceipt {
        let made = try makeHandshake(to: peer)
        let receipt = try await submit(made.payload, receiver: peer, amount: Messenger.handshakeAmountSompi)
        if let spend = ChainSpend(.handshake, receipt) { spends.append(spend) }
        // Read again: a row applied while the submit was away (the peer's own handshake, through
        // a running `listen`) may have changed this conversation's routing.
        var state = try routingState(for: peer)
        state.recordHandshakeSent(made.handshake)
        try routing.save([state])
        try history.save(
            MessageIngest.handshakeRow(
                txID: receipt.txID, blockTime: receipt.blockTime, peer: peer, direction: .outgoing,
                placeholder: MessageIngest.handshakeSentPlaceholder))
        let stashed = try await submit(try savedHandshakePayload(made, to: peer))
        if let spend = ChainSpend(.savedHandshake, stashed) { spends.append(spend) }
        _ = try contacts.add(ContactAddress(peer), wallet: wallet)
        return receipt
    }

    /// A handshake to `peer` as the routing policy says, sealed and encoded, not yet sent.
    struct MadeHandshake {
        var handshake: HandshakePayload
        var payload: [UInt8]
        var isResponse: Bool
        var root: KasiaRoot
    }

    private func makeHandshake(to peer: KaspaAddress) throws -> MadeHandshake {
        let policy = try routing.policy()
        let state = try routingState(for: peer)
        let isResponse = try contacts.contact(ContactAddress(peer), wallet: wallet)?.isAutoAdded ?? false
        let handshake = state.handshake(
            policy: policy, isResponse: isResponse, timestampMs: nowMs,
            conversationID: state.conversationID ?? Self.conversationID())
        let sealed = try seal(handshake.jsonText, to: peer)
        // Every payload of this conversation goes under the root the peer reads (issue 43 item 2).
        return MadeHandshake(
            handshake: handshake, payload: KasiaPayload.handshake(sealed: sealed).encoded(root: state.writeRoot),
            isResponse: isResponse, root: state.writeRoot)
    }

    /// The `self_stash:saved_handshake` of `made`, sealed to ourselves (§5.4), with the peer's
    /// alias as the routing state knows it now.
    private func savedHandshakePayload(_ made: MadeHandshake, to peer: KaspaAddress) throws -> [UInt8] {
        let saved = SavedHandshake(
            partnerAddress: peer, isResponse: made.isResponse, timestampMilliseconds: nowMs,
            alias: made.handshake.alias, theirAlias: try routingState(for: peer).legacyIncomingAliases.min())
        let stash = try seal(saved.jsonText(policy: try routing.policy().selfStashWritePolicy), to: address)
        return KasiaPayload.selfStash(scope: KasiaPayload.savedHandshakeScope, sealed: stash).encoded(root: made.root)
    }

    /// What sending `text` to `peer` would cost on the chain now (nil `text`: a handshake
    /// alone); nil on a relay (issue 51 item 3).
    func quote(_ text: String?, to peer: KaspaAddress, discrete: Bool, isolation: isolated (any Actor)? = #isolation)
        async throws -> SendQuote?
    {
        guard let chain else { return nil }
        let policy = try routing.policy()
        let state = try routingState(for: peer)
        let composer = state.composerState(policy: policy)
        let startsConversation: Bool
        if text == nil {
            startsConversation = true
        } else if try routing.fetchOne(peer) == nil {
            startsConversation = !discrete
        } else if case .needsHandshake = composer {
            startsConversation = true
        } else {
            startsConversation = false
        }
        var handshakeFee: UInt64 = 0
        if startsConversation {
            let made = try makeHandshake(to: peer)
            handshakeFee &+= try await chain.estimateFee(
                OutgoingPayload(bytes: made.payload, receiver: peer, amount: Messenger.handshakeAmountSompi))
            handshakeFee &+= try await chain.estimateFee(
                OutgoingPayload(bytes: try savedHandshakePayload(made, to: peer)))
        }
        var messageFee: UInt64 = 0
        if let text {
            let alias: Alias
            switch composer {
            case .ready(let ready), .warning(_, let ready), .needsHandshake(let ready): alias = ready
            }
            let message = KasiaPayload.contextualMessage(
                alias: alias, sealed: try seal(text, to: peer), encoding: .base64
            ).encoded(root: state.writeRoot)
            messageFee = try await chain.estimateFee(OutgoingPayload(bytes: message))
        }
        return SendQuote(
            startsConversation: startsConversation,
            amountSompi: startsConversation ? Messenger.handshakeAmountSompi : 0, handshakeFeeSompi: handshakeFee,
            messageFeeSompi: messageFee)
    }

    /// A conversation without a handshake (seed 000 §1.4 "discrete"): the deterministic pair is
    /// derived here and by the peer, the contact is added, nothing goes on chain.
    func startDiscreteConversation(with peer: KaspaAddress) throws {
        try routing.save([try routingState(for: peer)])
        _ = try contacts.add(ContactAddress(peer), wallet: wallet)
    }

    // MARK: Messages

    /// A pending outgoing row of `text` to `peer`, stored.
    func queue(_ text: String, to peer: KaspaAddress) throws -> StoredMessage {
        guard !text.isEmpty else { throw MessagingError.invalidMessage("the message is empty") }
        let now = nowMs
        let pending = StoredMessage(
            id: MessageID(UUID()), conversation: ConversationID(peer.description), txID: nil,
            blockTime: UInt64(clamping: now), timestamp: now, status: .pending, direction: .outgoing, kind: .text,
            body: Data(text.utf8))
        try history.save(pending)
        return pending
    }

    /// Stores `text` to `peer` as pending, then delivers it (``Messenger/send(_:to:force:discrete:)``).
    func send(
        _ text: String, to peer: KaspaAddress, force: Bool, discrete: Bool, spends: inout [ChainSpend],
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> StoredMessage {
        guard !text.isEmpty else { throw MessagingError.invalidMessage("the message is empty") }
        let alias = try await sendAlias(for: peer, force: force || discrete, discrete: discrete, spends: &spends)
        let pending = try queue(text, to: peer)
        return try await deliver(pending, text: text, alias: alias, to: peer, spends: &spends)
    }

    /// Submits a failed (or stuck pending) outgoing row again, under the same id: the
    /// transport's kept submission when there is one, else the text sealed anew.
    func retry(
        _ id: MessageID, spends: inout [ChainSpend], isolation: isolated (any Actor)? = #isolation
    ) async throws -> StoredMessage {
        guard let row = try history.message(id), row.direction == .outgoing, row.txID == nil,
            let body = row.body, let text = String(data: body, encoding: .utf8),
            let peer = try? KaspaAddress(row.conversation.rawValue)
        else { throw MessagingError.invalidMessage("no unsent outgoing message \(id)") }
        let kept: SubmissionReceipt?
        do { kept = try await outbox?.resubmit(id) } catch {
            try markFailed(row)
            throw error
        }
        if let kept { return try await recordSent(row, receipt: kept, to: peer) }
        // Retrying is the sender's choice made again: a warning no longer holds it back.
        let alias = try await sendAlias(for: peer, force: true, discrete: false, spends: &spends)
        return try await deliver(row, text: text, alias: alias, to: peer, spends: &spends)
    }

    /// Sends every outgoing message the transport has not had acknowledged, oldest first, each
    /// as the same signed submission as before (``Messenger/resendUnsent()``).
    func resendUnsent(isolation: isolated (any Actor)? = #isolation) async throws -> [StoredMessage] {
        guard let outbox else { return [] }
        var waiting: [StoredMessage] = []
        for id in try await outbox.unacknowledged() {
            guard let row = try history.message(id), row.txID == nil else {
                try await outbox.acknowledge(id)
                continue
            }
            waiting.append(row)
        }
        var sent: [StoredMessage] = []
        var firstError: (any Error)?
        for row in waiting.sorted(by: { $0.key < $1.key }) {
            var spends: [ChainSpend] = []  // only the relay keeps an outbox: nothing is paid
            do { sent.append(try await retry(row.id, spends: &spends)) } catch {
                if firstError == nil { firstError = error }
            }
        }
        if let firstError { throw firstError }
        return sent
    }

    /// Seals `text` for `row` and submits it; a failure leaves the row `failed`.
    private func deliver(
        _ row: StoredMessage, text: String, alias: Alias, to peer: KaspaAddress, spends: inout [ChainSpend],
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> StoredMessage {
        let receipt: SubmissionReceipt
        do {
            let sealed = try seal(text, to: peer)
            let root = try routingState(for: peer).writeRoot
            let payload = KasiaPayload.contextualMessage(alias: alias, sealed: sealed, encoding: .base64)
                .encoded(root: root)
            if let outbox {
                receipt = try await outbox.submit(OutgoingPayload(bytes: payload), keeping: row.id)
            } else {
                receipt = try await transport.submit(OutgoingPayload(bytes: payload))
            }
        } catch {
            try markFailed(row)
            throw error
        }
        if let spend = ChainSpend(.message, receipt) { spends.append(spend) }
        return try await recordSent(row, receipt: receipt, to: peer)
    }

    /// The sent row in place of the pending one, the contact's last message time, and the
    /// transport told the receipt is recorded.
    private func recordSent(
        _ row: StoredMessage, receipt: SubmissionReceipt, to peer: KaspaAddress,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> StoredMessage {
        try history.promote(row.id, txID: TxID(receipt.txID), blockTime: receipt.blockTime, status: .sent)
        try contacts.recordMessage(
            from: ContactAddress(peer), wallet: wallet, at: UnixMillis(Int64(clamping: receipt.blockTime)))
        try await outbox?.acknowledge(row.id)
        // The tx id's first row wins (kasia-protocol §9): another process of this profile (a
        // running `listen`) may have stored the transport's copy before this promote.
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
    private func sendAlias(
        for peer: KaspaAddress, force: Bool, discrete: Bool, spends: inout [ChainSpend],
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> Alias {
        let policy = try routing.policy()
        if try routing.fetchOne(peer) == nil {
            if discrete {
                try startDiscreteConversation(with: peer)
            } else {
                _ = try await startConversation(with: peer, spends: &spends)
            }
        }
        switch try routingState(for: peer).composerState(policy: policy) {
        case .ready(let alias): return alias
        case .warning(let warning, let alias):
            guard force else { throw MessagingError.peerMayNotReceive(address: peer.description, warning: warning) }
            return alias
        case .needsHandshake:
            _ = try await startConversation(with: peer, spends: &spends)
            switch try routingState(for: peer).composerState(policy: policy) {
            case .ready(let alias), .warning(_, let alias), .needsHandshake(let alias): return alias
            }
        }
    }

    /// What the composer warns about for `peer` now, if anything (seed 000 Phase 4).
    func composerWarning(for peer: KaspaAddress) throws -> ComposerWarning? {
        guard let state = try routing.fetchOne(peer) else { return nil }
        if case .warning(let warning, _) = state.composerState(policy: try routing.policy()) { return warning }
        return nil
    }

    // MARK: Payments

    /// Pays `amountSompi` to `peer` with a sealed memo in the form that peer reads (issue 43
    /// item 3): KaChat's `pay:`, or Kasia web's `payment:` where the evidence says web, under the
    /// conversation's root. The memo is checked before anything is submitted; the payment is an
    /// outgoing `payment` row of the conversation with its amount once the node took it.
    func pay(
        _ amountSompi: UInt64, to peer: KaspaAddress, memo: String, approval: FeeApproval,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> PaymentSent {
        guard amountSompi > 0 else { throw MessagingError.invalidMessage("the amount must be above 0") }
        let state = try routingState(for: peer)
        let form = state.paymentForm
        let text: String
        do {
            text = try PaymentMemo(message: memo, amountSompi: amountSompi, timestampMilliseconds: nowMs)
                .jsonText(form: form)
        } catch { throw MessagingError.invalidMessage(error.description) }
        let payload = KasiaPayload.payment(sealed: try seal(text, to: peer), form: form).encoded(root: state.writeRoot)
        try Messenger.checkSize(payload)
        // Only money on a chain is a payment: a relay moves none.
        guard let chain else { throw MessagingError.paymentNeedsKaspa }
        let sent = try await chain.pay(
            OutgoingPayload(bytes: payload, receiver: peer, amount: amountSompi), approval: approval)
        let now = clock.now
        try history.save(
            MessageIngest.row(
                txID: sent.transactionID, blockTime: UInt64(clamping: now.rawValue), conversation: peer.description,
                direction: .outgoing, kind: .payment, body: Data(memo.utf8), root: state.writeRoot.rawValue,
                amountSompi: amountSompi))
        if try routing.fetchOne(peer) == nil { try routing.save([state]) }
        try contacts.recordMessage(from: ContactAddress(peer), wallet: wallet, at: now)
        return PaymentSent(
            transactionID: sent.transactionID, amountSompi: amountSompi, fee: sent.fee, to: peer, memo: memo)
    }

    // MARK: Shared steps

    func routingState(for peer: KaspaAddress) throws -> ConversationRoutingState {
        try routing.fetchOne(peer) ?? MessageIngest.newState(for: peer, key: key, now: clock.now)
    }

    func seal(_ text: String, to recipient: KaspaAddress) throws -> [UInt8] {
        do { return try KasiaCipher.seal(text, to: recipient) } catch {
            throw MessagingError.invalidPeer(address: recipient.description, reason: error.description)
        }
    }

    /// Submits `payload` through the transport (handshakes and self-stashes: nothing kept).
    @discardableResult
    func submit(
        _ payload: [UInt8], receiver: KaspaAddress? = nil, amount: UInt64? = nil,
        isolation: isolated (any Actor)? = #isolation
    ) async throws -> SubmissionReceipt {
        try Messenger.checkSize(payload)
        return try await transport.submit(OutgoingPayload(bytes: payload, receiver: receiver, amount: amount))
    }

    /// KaChat's conversation id: the first 12 hex characters of a fresh UUID (§5.1).
    static func conversationID() -> String {
        String(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12))
    }
}
