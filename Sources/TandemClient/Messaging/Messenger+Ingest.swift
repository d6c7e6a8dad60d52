import ChatHistory
import ChatTimeline
import Contacts
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics

/// How relay rows become routing state, history rows and contacts, the same for indexer pages
/// and stream events. Every path de-duplicates by `tx_id`, so a row seen twice (boundary rows
/// of the inclusive cursor, sync and stream overlapping) changes nothing the second time.
extension Messenger {
    /// A handshake to us (kasia-protocol §5.1): routing learns the peer (seed 000 §4.3–4.4),
    /// the contact is auto-added, and the conversation shows KaChat's placeholder row
    /// (kasia-protocol §8). Undecryptable or non-handshake bodies are skipped.
    func ingestHandshake(_ row: IndexerHandshake) throws -> IncomingMessage? {
        // The stream replays from before the sync that applied a handshake, and a sync after a
        // reconnect re-reads what the stream applied: the placeholder row's tx id, the cursor
        // and this session's set each say "seen" (the set also covers undecryptable rows).
        guard !cursors[.handshakesToMe].hasSeen(txID: row.txID, blockTime: row.blockTime),
            !appliedHandshakes.contains(row.txID), try history.message(txID: TxID(row.txID)) == nil
        else { return nil }
        appliedHandshakes.insert(row.txID)
        guard row.receiver == address.description, row.sender != address.description,
            let sender = try? KaspaAddress(row.sender),
            let sealed = try? Hex.decode(row.messagePayload),
            let plaintext = try? KasiaCipher.open(sealed, using: key),
            let handshake = try? HandshakePayload(decoding: plaintext)
        else { return nil }
        var state = try routingState(for: sender)
        state.receiveHandshake(handshake, at: UnixMillis(Int64(clamping: row.blockTime)), policy: try routing.policy())
        try routing.save([state])
        let id = try recordHandshake(
            txID: row.txID, blockTime: row.blockTime, peer: sender, direction: .incoming,
            placeholder: handshake.isResponse ? Self.requestAcceptedPlaceholder : Self.requestPlaceholder)
        try contacts.recordMessage(from: ContactAddress(sender), wallet: wallet, at: Self.time(row.blockTime))
        return IncomingMessage(
            kind: .handshake, id: id, txID: row.txID, sender: sender, text: "", blockTime: row.blockTime)
    }

    /// One of our own handshakes (sent from here or another device): its placeholder row.
    func ingestOwnHandshake(_ row: IndexerHandshake) throws {
        guard row.sender == address.description, let peer = try? KaspaAddress(row.receiver), peer != address
        else { return }
        try recordHandshake(
            txID: row.txID, blockTime: row.blockTime, peer: peer, direction: .outgoing,
            placeholder: Self.handshakeSentPlaceholder)
    }

    /// KaChat's placeholder contents of handshake rows (kasia-protocol §8).
    static let handshakeSentPlaceholder = "[Handshake sent]"
    static let requestPlaceholder = "[Request to communicate]"
    static let requestAcceptedPlaceholder = "[Request accepted]"

    /// Stores a handshake as a `handshake`-kind row of the conversation with `peer`, its body
    /// KaChat's placeholder, de-duplicated by `tx_id` like every row. Returns its id, or nil
    /// when that `tx_id` was already stored.
    @discardableResult
    func recordHandshake(
        txID: String, blockTime: UInt64, peer: KaspaAddress, direction: MessageDirection, placeholder: String
    ) throws -> MessageID? {
        let row = StoredMessage(
            id: MessageID(UUID()), conversation: ConversationID(peer.description), txID: TxID(txID),
            blockTime: blockTime, timestamp: Int64(clamping: blockTime), status: .sent, direction: direction,
            kind: .handshake, body: Data(placeholder.utf8))
        guard case .inserted(let id) = try history.save(row) else { return nil }
        return id
    }

    /// A `comm` row. A peer's message is kept only when routing reads its alias for that peer;
    /// our own message (seen by the relay, or sent from another device) confirms or adds the
    /// outgoing row, whose text we cannot decrypt (sealed to the peer, §5.2). `ownPeer` names
    /// the peer of our own alias when the caller already knows it (sync pages per alias), so
    /// the routing table is not searched once per row.
    func ingestMessage(_ row: IndexerContextualMessage, ownPeer: KaspaAddress? = nil) async throws
        -> IncomingMessage?
    {
        guard let aliasBytes = try? Hex.decode(row.alias),
            let alias = try? Alias(String(decoding: aliasBytes, as: UTF8.self)),
            let sender = try? KaspaAddress(row.sender)
        else { return nil }
        if sender == address { return try await ingestOwnMessage(row, alias: alias, peer: ownPeer) }
        if try history.message(txID: TxID(row.txID)) != nil { return nil }
        guard var state = try routing.fetchOne(sender) else { return nil }
        guard
            state.receiveMessage(
                on: alias, at: UnixMillis(Int64(clamping: row.blockTime)), policy: try routing.policy()) != .ignored
        else {
            return nil
        }
        guard let body = try? Hex.decode(row.messagePayload),
            case .contextualMessage(_, let sealed, _)? = try? KasiaPayload(
                parsing: Array("ciph_msg:1:comm:\(alias.rawValue):".utf8) + body),
            let text = try? KasiaCipher.open(sealed, using: key)
        else { return nil }
        try routing.save([state])
        let stored = StoredMessage(
            id: MessageID(UUID()), conversation: ConversationID(sender.description), txID: TxID(row.txID),
            blockTime: row.blockTime, timestamp: Int64(clamping: row.blockTime), status: .sent, direction: .incoming,
            kind: .text, body: Data(text.utf8))
        guard case .inserted(let id) = try history.save(stored) else { return nil }
        try contacts.recordMessage(from: ContactAddress(sender), wallet: wallet, at: Self.time(row.blockTime))
        return IncomingMessage(
            kind: .text, id: id, txID: row.txID, sender: sender, text: text, blockTime: row.blockTime)
    }

    private func ingestOwnMessage(
        _ row: IndexerContextualMessage, alias: Alias, peer knownPeer: KaspaAddress?
    ) async throws -> IncomingMessage? {
        if var existing = try history.message(txID: TxID(row.txID)) {
            existing.status = .confirmed
            existing.blockTime = row.blockTime
            try history.save(existing)
            return nil
        }
        // Our pending message, committed by a relay that died before answering (RelayOutbox).
        if let id = try await transport.keptMessage(txID: row.txID),
            try history.promote(id, txID: TxID(row.txID), blockTime: row.blockTime, status: .confirmed) != nil
        {
            try await transport.acknowledge(id)
            if let peer = try history.message(id).flatMap({ try? KaspaAddress($0.conversation.rawValue) }) {
                try contacts.recordMessage(from: ContactAddress(peer), wallet: wallet, at: Self.time(row.blockTime))
            }
            return nil
        }
        guard let peer = try knownPeer ?? ownAliasPeer(alias) else { return nil }
        // Sent from another device: known to exist, text unreadable here (nil body).
        try history.save(
            StoredMessage(
                id: MessageID(UUID()), conversation: ConversationID(peer.description), txID: TxID(row.txID),
                blockTime: row.blockTime, timestamp: Int64(clamping: row.blockTime), status: .confirmed,
                direction: .outgoing,
                kind: .text, body: nil))
        try contacts.recordMessage(from: ContactAddress(peer), wallet: wallet, at: Self.time(row.blockTime))
        return nil
    }

    /// The contact we send to with `alias`, searched in the routing table (the stream's rows
    /// carry no route).
    private func ownAliasPeer(_ alias: Alias) throws -> KaspaAddress? {
        let policy = try routing.policy()
        return try routing.fetchTable().states.values.first {
            $0.ownSentAliases(policy: policy).contains(alias)
        }?.contactAddress
    }

    /// Our own `saved_handshake` stash (§5.4): restores the conversation with its partner. The
    /// deterministic pair is derived from the partner address; alias fields only add legacy
    /// aliases (seed 000 §3.4).
    func ingestSavedHandshake(_ row: IndexerSelfStash) throws {
        guard row.owner == address.description,
            let sealed = try? Hex.decode(row.stashedData),
            let plaintext = try? KasiaCipher.open(sealed, using: key),
            let saved = try? SavedHandshake(decoding: plaintext),
            saved.partnerAddress != address
        else { return }
        var state = try routingState(for: saved.partnerAddress)
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
        try routing.save([state])
        let contact = ContactAddress(saved.partnerAddress)
        if try contacts.contact(contact, wallet: wallet).map({ $0.isDeleted }) ?? true {
            try contacts.add(contact, wallet: wallet)
        }
    }

    /// A payment memo to us (§5.3): stored and shown, never sent from here.
    func ingestPayment(_ row: IndexerPayment) throws -> IncomingMessage? {
        guard row.receiver == address.description, let senderText = row.sender,
            let sender = try? KaspaAddress(senderText), sender != address
        else { return nil }
        if try history.message(txID: TxID(row.txID)) != nil { return nil }
        guard var sealed = try? Hex.decode(row.message) else { return nil }
        // The web form stores hex text of the sealed bytes; KaChat's stores them raw.
        if sealed.allSatisfy(Hex.isDigit), let inner = try? Hex.decode(utf8: sealed) { sealed = inner }
        guard let plaintext = try? KasiaCipher.open(sealed, using: key) else { return nil }
        let memo = Self.paymentMemo(plaintext)
        let stored = StoredMessage(
            id: MessageID(UUID()), conversation: ConversationID(sender.description), txID: TxID(row.txID),
            blockTime: row.blockTime, timestamp: Int64(clamping: row.blockTime), status: .sent, direction: .incoming,
            kind: .payment, body: Data(memo.utf8))
        guard case .inserted(let id) = try history.save(stored) else { return nil }
        try contacts.recordMessage(from: ContactAddress(sender), wallet: wallet, at: Self.time(row.blockTime))
        return IncomingMessage(
            kind: .payment, id: id, txID: row.txID, sender: sender, text: memo, blockTime: row.blockTime,
            amountSompi: row.amount)
    }

    /// The memo text of a payment JSON (`message`), or the whole plaintext when it is not one.
    static func paymentMemo(_ plaintext: String) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: Data(plaintext.utf8)) as? [String: Any] else {
            return plaintext
        }
        return object["message"] as? String ?? ""
    }

    /// A channel broadcast (plaintext, newer web): shown, stored under `broadcast:<channel>`.
    func ingestBroadcast(_ row: IndexerBroadcast) throws -> IncomingMessage? {
        guard let sender = try? KaspaAddress(row.sender),
            let channelBytes = try? Hex.decode(row.channel), let textBytes = try? Hex.decode(row.message)
        else { return nil }
        if try history.message(txID: TxID(row.txID)) != nil { return nil }
        let channel = String(decoding: channelBytes, as: UTF8.self)
        let text = String(decoding: textBytes, as: UTF8.self)
        let stored = StoredMessage(
            id: MessageID(UUID()), conversation: ConversationID("broadcast:" + channel), txID: TxID(row.txID),
            blockTime: row.blockTime, timestamp: Int64(clamping: row.blockTime), status: .sent, direction: .incoming,
            kind: .text, body: Data(text.utf8))
        guard case .inserted(let id) = try history.save(stored) else { return nil }
        return IncomingMessage(
            kind: .broadcast, id: id, txID: row.txID, sender: sender, text: text, blockTime: row.blockTime,
            channel: channel)
    }

    /// One stream event, applied exactly like the indexer row it carries.
    func ingest(_ event: RelayEvent) async throws -> IncomingMessage? {
        switch event.row {
        case .handshake(let row):
            if row.sender == address.description {
                try ingestOwnHandshake(row)
                return nil
            }
            return try ingestHandshake(row)
        case .contextualMessage(let row): return try await ingestMessage(row)
        case .payment(let row): return try ingestPayment(row)
        case .selfStash(let row):
            if row.scope == Hex.encode(Array(KasiaPayload.savedHandshakeScope.utf8)) { try ingestSavedHandshake(row) }
            return nil
        case .broadcast(let row): return try ingestBroadcast(row)
        }
    }

    static func time(_ blockTime: UInt64) -> UnixMillis { UnixMillis(Int64(clamping: blockTime)) }
}
