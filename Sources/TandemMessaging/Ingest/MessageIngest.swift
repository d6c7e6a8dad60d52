import ChatHistory
import ChatTimeline
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics

/// How one Kasia row becomes history, routing and contact changes (issue 24 item 3): the pure
/// half of ``Messenger``'s ingest. It reads the row, opens what is sealed to this wallet and
/// decides; ``IngestLookup`` answers what it needs to know about the profile's stores, and the
/// ``IngestPlan`` it returns is applied by the messenger. Relay pages, relay stream events and
/// rows read from the Kaspa chain all pass through it, so every transport routes, opens and
/// de-duplicates the same way.
struct MessageIngest: Sendable {
    /// This wallet's key: opens what is sealed to us.
    let key: PrivateKey
    /// This wallet's address on the transport's network.
    let address: KaspaAddress
    let policy: RoutingPolicy
    /// The profile's now, for routing states made for a new peer.
    let now: UnixMillis

    /// KaChat's placeholder contents of handshake rows (kasia-protocol §8).
    static let handshakeSentPlaceholder = "[Handshake sent]"
    static let requestPlaceholder = "[Request to communicate]"
    static let requestAcceptedPlaceholder = "[Request accepted]"

    /// A handshake to us (kasia-protocol §5.1): routing learns the peer (seed 000 §4.3–4.4), the
    /// contact is auto-added by its activity, and the conversation shows KaChat's placeholder row
    /// (§8). Rows not to us, undecryptable or not a handshake change nothing.
    func handshake(_ row: IndexerHandshake, lookup: IngestLookup) throws -> IngestPlan {
        guard row.receiver == address.description, row.sender != address.description,
            let sender = try? KaspaAddress(row.sender),
            let sealed = try? Hex.decode(row.messagePayload),
            let plaintext = try? KasiaCipher.open(sealed, using: key),
            let handshake = try? HandshakePayload(decoding: plaintext)
        else { return .nothing }
        let before = try lookup.routingState(sender)
        var state = try before ?? newState(for: sender)
        state.receiveHandshake(handshake, at: Self.time(row.blockTime), policy: policy)
        if let app = HandshakePayload.app(ofPlaintext: plaintext) { state.recordApp(app, at: Self.time(row.blockTime)) }
        Self.recordRoot(row.root, at: row.blockTime, in: &state)
        let placeholder = handshake.isResponse ? Self.requestAcceptedPlaceholder : Self.requestPlaceholder
        let stored = Self.handshakeRow(
            txID: row.txID, blockTime: row.blockTime, peer: sender, direction: .incoming, placeholder: placeholder)
        return IngestPlan(
            routing: state, changesWatchSet: changesWatch(before, state), insert: stored,
            activity: ContactActivity(peer: sender, at: Self.time(row.blockTime)),
            announcement: IncomingMessage(
                kind: .handshake, id: stored.id, txID: row.txID, sender: sender, text: "", blockTime: row.blockTime))
    }

    /// One of our own handshakes (sent from here or another device): its placeholder row.
    func ownHandshake(_ row: IndexerHandshake) -> IngestPlan {
        guard row.sender == address.description, let peer = try? KaspaAddress(row.receiver), peer != address
        else { return .nothing }
        return IngestPlan(
            insert: Self.handshakeRow(
                txID: row.txID, blockTime: row.blockTime, peer: peer, direction: .outgoing,
                placeholder: Self.handshakeSentPlaceholder))
    }

    /// A `comm` row. A peer's message is kept only when routing reads its alias for that peer;
    /// our own (seen by the indexer, or sent from another device) confirms or adds the outgoing
    /// row, whose text we cannot decrypt (sealed to the peer, §5.2). `ownPeer` names the peer of
    /// our own alias when the caller knows it (sync pages per alias), so the routing table is not
    /// searched once per row.
    func message(_ row: IndexerContextualMessage, ownPeer: KaspaAddress? = nil, lookup: IngestLookup) throws
        -> IngestPlan
    {
        guard let aliasBytes = try? Hex.decode(row.alias),
            let alias = try? Alias(String(decoding: aliasBytes, as: UTF8.self)),
            let sender = try? KaspaAddress(row.sender)
        else { return .nothing }
        if sender == address { return try ownMessage(row, alias: alias, peer: ownPeer, lookup: lookup) }
        guard try lookup.storedMessage(row.txID) == nil, let before = try lookup.routingState(sender) else {
            return .nothing
        }
        var state = before
        guard state.receiveMessage(on: alias, at: Self.time(row.blockTime), policy: policy) != .ignored,
            let body = try? Hex.decode(row.messagePayload),
            case .contextualMessage(_, let sealed, _)? = try? KasiaPayload(
                parsing: Array("ciph_msg:1:comm:\(alias.rawValue):".utf8) + body),
            let text = try? KasiaCipher.open(sealed, using: key)
        else { return .nothing }
        Self.recordRoot(row.root, at: row.blockTime, in: &state)
        var plan = IngestPlan(
            routing: state, changesWatchSet: changesWatch(before, state),
            activity: ContactActivity(peer: sender, at: Self.time(row.blockTime)))
        switch MessageContent(message: text) {
        case .envelope(let envelope):
            try apply(envelope, from: sender, in: row, to: &plan, lookup: lookup)
        case .text(let text), .paymentMemo(let text):
            plan.show(
                Self.row(
                    txID: row.txID, blockTime: row.blockTime, conversation: sender.description, direction: .incoming,
                    kind: .text, body: Data(text.utf8), root: row.root), text: text, from: sender)
        }
        return plan
    }

    /// Our own message: the stored row (sent from here) is confirmed; else the transport's kept
    /// submission under this tx id is promoted (a relay that died before answering); else it was
    /// sent from another device, and a row with no text is added to the conversation of its alias.
    private func ownMessage(
        _ row: IndexerContextualMessage, alias: Alias, peer knownPeer: KaspaAddress?, lookup: IngestLookup
    ) throws -> IngestPlan {
        if var existing = try lookup.storedMessage(row.txID) {
            existing.status = .confirmed
            existing.blockTime = row.blockTime
            return IngestPlan(update: existing)
        }
        let peer = try knownPeer ?? lookup.ownAliasPeer(alias)
        return IngestPlan(
            kept: KeptSubmission(txID: row.txID, blockTime: row.blockTime),
            insert: peer.map {
                Self.row(
                    txID: row.txID, blockTime: row.blockTime, conversation: $0.description, direction: .outgoing,
                    kind: .text, body: nil, status: .confirmed)
            },
            activity: peer.map { ContactActivity(peer: $0, at: Self.time(row.blockTime)) })
    }

    /// Our own `saved_handshake` stash (§5.4): restores the conversation with its partner. The
    /// deterministic pair is derived from the partner address; alias fields only add legacy
    /// aliases (seed 000 §3.4). A partner who is not a live contact is added again.
    func savedHandshake(_ row: IndexerSelfStash, lookup: IngestLookup) throws -> IngestPlan {
        guard row.owner == address.description,
            let sealed = try? Hex.decode(row.stashedData),
            let plaintext = try? KasiaCipher.open(sealed, using: key),
            let saved = try? SavedHandshake(decoding: plaintext),
            saved.partnerAddress != address
        else { return .nothing }
        let before = try lookup.routingState(saved.partnerAddress)
        var state = try before ?? newState(for: saved.partnerAddress)
        if let alias = saved.alias {
            if alias == state.deterministic.theirAlias {
                state.recordHandshakeSent(HandshakePayload(alias: alias))
            } else {
                state.legacyOutgoingAliases.insert(alias)
                if state.mode == .deterministicOnly, !state.peerSupportsDeterministic { state.mode = .hybrid }
            }
        }
        if let theirAlias = saved.theirAlias, theirAlias != state.deterministic.myAlias {
            state.legacyIncomingAliases.insert(theirAlias)
        }
        let isLive = try lookup.isLiveContact(saved.partnerAddress)
        return IngestPlan(
            routing: state, changesWatchSet: changesWatch(before, state),
            addContact: isLive ? nil : saved.partnerAddress)
    }

    /// A payment memo to us (§5.3), in either form: stored and shown with the amount on chain
    /// (the first output's, as KaChat shows it), never the memo's own `amount`. It is verified
    /// (its row confirmed) only when a chain block accepted it (issue 50 item 7); a stored one
    /// seen again accepted becomes verified. Our own payment, seen accepted, is verified too.
    func payment(_ row: IndexerPayment, lookup: IngestLookup) throws -> IngestPlan {
        guard let senderText = row.sender, let sender = try? KaspaAddress(senderText) else { return .nothing }
        if sender == address { return try ownPayment(row, lookup: lookup) }
        guard row.receiver == address.description else { return .nothing }
        if let stored = try lookup.storedMessage(row.txID) { return Self.verify(stored, by: row, from: sender) }
        guard var sealed = try? Hex.decode(row.message) else { return .nothing }
        // The web form stores hex text of the sealed bytes; KaChat's stores them raw.
        var app = PeerApp.kachat
        if sealed.allSatisfy(Hex.isDigit), let inner = try? Hex.decode(utf8: sealed) {
            sealed = inner
            app = .kasiaWeb
        }
        guard let plaintext = try? KasiaCipher.open(sealed, using: key) else { return .nothing }
        let memo = MessageContent(paymentPlaintext: plaintext).shownText ?? plaintext
        let stored = Self.row(
            txID: row.txID, blockTime: row.blockTime, conversation: sender.description, direction: .incoming,
            kind: .payment, body: Data(memo.utf8), status: row.isVerified ? .confirmed : .sent, root: row.root,
            amountSompi: row.amount)
        // The payment's form and root are evidence for a conversation we have; it starts none.
        var routing: ConversationRoutingState?
        if let before = try lookup.routingState(sender) {
            var state = before
            state.recordApp(app, at: Self.time(row.blockTime))
            Self.recordRoot(row.root, at: row.blockTime, in: &state)
            if state != before { routing = state }
        }
        return IngestPlan(
            routing: routing, insert: stored, activity: ContactActivity(peer: sender, at: Self.time(row.blockTime)),
            announcement: IncomingMessage(
                kind: .payment, id: stored.id, txID: row.txID, sender: sender, text: memo, blockTime: row.blockTime,
                amountSompi: row.amount, verified: row.isVerified))
    }

    /// A stored payment seen again: verified now when this copy was accepted and the row was not,
    /// with the amount on chain (a KaChat payment notice stored first carries the amount its
    /// writer claimed). A row of another conversation under this tx id (a notice naming someone
    /// else's payment) is not verified by it.
    static func verify(_ stored: StoredMessage, by row: IndexerPayment, from sender: KaspaAddress) -> IngestPlan {
        guard stored.kind == .payment, stored.direction == .incoming, row.isVerified, !stored.isVerifiedPayment,
            stored.conversation.rawValue == sender.description
        else { return .nothing }
        var verified = stored
        verified.status = .confirmed
        verified.amountSompi = row.amount
        return IngestPlan(
            update: verified,
            announcement: IncomingMessage(
                kind: .paymentVerified, id: stored.id, txID: row.txID, sender: sender,
                text: stored.body.map { String(decoding: $0, as: UTF8.self) } ?? "", blockTime: row.blockTime,
                amountSompi: row.amount, verified: true))
    }

    /// Our own payment seen accepted: the row sent from here is verified; one sent from another
    /// device is added, its memo unreadable (sealed to the payee). A pending copy changes nothing.
    private func ownPayment(_ row: IndexerPayment, lookup: IngestLookup) throws -> IngestPlan {
        guard row.isVerified, let payee = try? KaspaAddress(row.receiver), payee != address else { return .nothing }
        if let stored = try lookup.storedMessage(row.txID) {
            guard stored.kind == .payment, !stored.isVerifiedPayment else { return .nothing }
            var verified = stored
            verified.status = .confirmed
            verified.blockTime = row.blockTime
            return IngestPlan(update: verified)
        }
        return IngestPlan(
            insert: Self.row(
                txID: row.txID, blockTime: row.blockTime, conversation: payee.description, direction: .outgoing,
                kind: .payment, body: nil, status: .confirmed, root: row.root, amountSompi: row.amount),
            activity: ContactActivity(peer: payee, at: Self.time(row.blockTime)))
    }

    /// A channel broadcast (plaintext, newer web): shown, stored under `broadcast:<channel>`.
    func broadcast(_ row: IndexerBroadcast, lookup: IngestLookup) throws -> IngestPlan {
        guard let sender = try? KaspaAddress(row.sender),
            let channelBytes = try? Hex.decode(row.channel), let textBytes = try? Hex.decode(row.message),
            try lookup.storedMessage(row.txID) == nil
        else { return .nothing }
        let channel = String(decoding: channelBytes, as: UTF8.self)
        let text = String(decoding: textBytes, as: UTF8.self)
        let stored = Self.row(
            txID: row.txID, blockTime: row.blockTime, conversation: "broadcast:" + channel, direction: .incoming,
            kind: .text, body: Data(text.utf8))
        return IngestPlan(
            insert: stored,
            announcement: IncomingMessage(
                kind: .broadcast, id: stored.id, txID: row.txID, sender: sender, text: text,
                blockTime: row.blockTime, channel: channel))
    }

    /// One stream event, planned exactly like the indexer row it carries.
    func event(_ event: IndexerEvent, lookup: IngestLookup) throws -> IngestPlan {
        switch event.row {
        case .handshake(let row):
            return row.sender == address.description ? ownHandshake(row) : try handshake(row, lookup: lookup)
        case .contextualMessage(let row): return try message(row, lookup: lookup)
        case .payment(let row): return try payment(row, lookup: lookup)
        case .selfStash(let row):
            guard row.scope == Hex.encode(Array(KasiaPayload.savedHandshakeScope.utf8)) else { return .nothing }
            return try savedHandshake(row, lookup: lookup)
        case .broadcast(let row): return try broadcast(row, lookup: lookup)
        }
    }

    /// Whether `after` reads or sends on other aliases than `before` (or is a new conversation).
    func changesWatch(_ before: ConversationRoutingState?, _ after: ConversationRoutingState) -> Bool {
        guard let before else { return true }
        return before.incomingAliases(policy: policy, now: now) != after.incomingAliases(policy: policy, now: now)
            || before.ownSentAliases(policy: policy) != after.ownSentAliases(policy: policy)
    }

    // MARK: Rows

    /// The routing state of a conversation this wallet has not had with `peer`.
    func newState(for peer: KaspaAddress) throws -> ConversationRoutingState {
        try Self.newState(for: peer, key: key, now: now)
    }

    /// The routing state of a new conversation of `key`'s wallet with `peer` (the sender's too).
    static func newState(for peer: KaspaAddress, key: PrivateKey, now: UnixMillis) throws -> ConversationRoutingState {
        do { return try ConversationRoutingState(contact: peer, privateKey: key, now: now) } catch {
            throw MessagingError.invalidPeer(address: peer.description, reason: error.description)
        }
    }

    /// A `handshake`-kind row of the conversation with `peer`, its body KaChat's placeholder.
    static func handshakeRow(
        txID: String, blockTime: UInt64, peer: KaspaAddress, direction: MessageDirection, placeholder: String
    ) -> StoredMessage {
        row(
            txID: txID, blockTime: blockTime, conversation: peer.description, direction: direction, kind: .handshake,
            body: Data(placeholder.utf8))
    }

    static func row(
        txID: String, blockTime: UInt64, conversation: String, direction: MessageDirection, kind: MessageKind,
        body: Data?, status: DeliveryStatus = .sent, root: String? = nil, amountSompi: UInt64? = nil
    ) -> StoredMessage {
        StoredMessage(
            id: MessageID(UUID()), conversation: ConversationID(conversation), txID: TxID(txID), blockTime: blockTime,
            timestamp: Int64(clamping: blockTime), status: status, direction: direction, kind: kind, body: body,
            amountSompi: amountSompi, root: root)
    }

    static func time(_ blockTime: UInt64) -> UnixMillis { UnixMillis(Int64(clamping: blockTime)) }

    /// Keeps the root a peer's row came under as evidence of what it reads (kasia-protocol §16);
    /// a row whose source does not say (a kasia-indexer) changes nothing.
    static func recordRoot(_ root: String?, at blockTime: UInt64, in state: inout ConversationRoutingState) {
        guard let root = root.flatMap(KasiaRoot.init(rawValue:)) else { return }
        state.recordRoot(root, at: time(blockTime))
    }
}
