import ChatHistory
import ChatTimeline
import Contacts
import Foundation
import KasiaProtocol
import KaspaCrypto
import TandemAPI
import TandemBasics

/// Applying rows: ``MessageIngest`` decides what a row does, the messenger applies the
/// ``IngestPlan`` to the profile's stores. Every path de-duplicates by `tx_id`, so a row seen
/// twice (boundary rows of the inclusive cursor, sync and stream overlapping) changes nothing
/// the second time.
extension Messenger {
    /// The pure ingest with this profile's key, address, routing policy and now.
    func ingestion() throws -> MessageIngest {
        MessageIngest(key: key, address: address, policy: try routing.policy(), now: profile.clock.now)
    }

    /// The ingest's questions, answered from this profile's stores.
    var lookup: IngestLookup {
        IngestLookup(
            routingState: { [routing] in try routing.fetchOne($0) },
            storedMessage: { [history] in try history.message(txID: TxID($0)) },
            ownAliasPeer: { [routing] alias in
                let policy = try routing.policy()
                return try routing.fetchTable().states.values.first {
                    $0.ownSentAliases(policy: policy).contains(alias)
                }?.contactAddress
            },
            isLiveContact: { [contacts, wallet] in
                try contacts.contact(ContactAddress($0), wallet: wallet).map { !$0.isDeleted } ?? false
            })
    }

    /// A handshake to us, applied once: the stream replays from before the sync that applied a
    /// handshake, and a sync after a reconnect re-reads what the stream applied, so the cursor,
    /// this session's set (which also covers undecryptable rows) and the placeholder row's tx id
    /// each say "seen".
    func ingestHandshake(_ row: IndexerHandshake) throws -> IncomingMessage? {
        try planHandshake(row).map(applyNow) ?? nil
    }

    /// The plan of a handshake to us not applied before, nil for one that was.
    private func planHandshake(_ row: IndexerHandshake) throws -> IngestPlan? {
        guard !cursors[.handshakesToMe].hasSeen(txID: row.txID, blockTime: row.blockTime),
            !appliedHandshakes.contains(row.txID), try history.message(txID: TxID(row.txID)) == nil
        else { return nil }
        appliedHandshakes.insert(row.txID)
        return try ingestion().handshake(row, lookup: lookup)
    }

    func ingestOwnHandshake(_ row: IndexerHandshake) throws {
        _ = try applyNow(try ingestion().ownHandshake(row))
    }

    func ingestMessage(_ row: IndexerContextualMessage, ownPeer: KaspaAddress? = nil) async throws
        -> IncomingMessage?
    {
        try await apply(try ingestion().message(row, ownPeer: ownPeer, lookup: lookup))
    }

    func ingestSavedHandshake(_ row: IndexerSelfStash) throws {
        _ = try applyNow(try ingestion().savedHandshake(row, lookup: lookup))
    }

    func ingestPayment(_ row: IndexerPayment) throws -> IncomingMessage? {
        try applyNow(try ingestion().payment(row, lookup: lookup))
    }

    /// One stream event, applied exactly like the indexer row it carries.
    func ingest(_ event: IndexerEvent) async throws -> IncomingMessage? {
        try await ingestLive(event).message
    }

    /// One stream event applied; says too whether its plan may change the watched set.
    func ingestLive(_ event: IndexerEvent) async throws -> (message: IncomingMessage?, changesWatch: Bool) {
        if case .handshake(let row) = event.row, row.sender != address.description {
            guard let plan = try planHandshake(row) else { return (nil, false) }
            return (try applyNow(plan), plan.changesWatchSet)
        }
        let plan = try ingestion().event(event, lookup: lookup)
        return (try await apply(plan), plan.changesWatchSet || plan.addContact != nil)
    }

    /// Applies `plan`; a kept submission is asked of the transport first.
    func apply(_ plan: IngestPlan) async throws -> IncomingMessage? {
        if let kept = plan.kept, let outbox = sender.outbox,
            let id = try await outbox.keptMessage(txID: kept.txID),
            try history.promote(id, txID: TxID(kept.txID), blockTime: kept.blockTime, status: .confirmed) != nil
        {
            // Our pending message, committed by a relay that died before answering (RelayOutbox).
            try await outbox.acknowledge(id)
            if let peer = try history.message(id).flatMap({ try? KaspaAddress($0.conversation.rawValue) }) {
                try contacts.recordMessage(
                    from: ContactAddress(peer), wallet: wallet, at: MessageIngest.time(kept.blockTime))
            }
            return nil
        }
        return try applyNow(plan)
    }

    /// Applies `plan` without asking the transport about kept submissions.
    private func applyNow(_ plan: IngestPlan) throws -> IncomingMessage? {
        if let state = plan.routing { try routing.save([state]) }
        if let update = plan.update { try history.save(update) }
        if let row = plan.insert {
            guard case .inserted = try history.save(row) else { return nil }
        }
        if let peer = plan.addContact { _ = try contacts.add(ContactAddress(peer), wallet: wallet) }
        if let activity = plan.activity {
            try contacts.recordMessage(from: ContactAddress(activity.peer), wallet: wallet, at: activity.at)
        }
        if let reaction = plan.reaction {
            let changed = try history.react(
                target: TxID(reaction.target), reactor: reaction.reactor.description, emoji: reaction.emoji,
                txID: TxID(reaction.txID), blockTime: reaction.blockTime)
            // A screen showing the target redraws it; a reaction to a message not stored yet waits.
            if changed, let target = try history.message(txID: TxID(reaction.target)) {
                return IncomingMessage(
                    kind: .reaction, id: target.id, txID: reaction.txID, sender: reaction.reactor,
                    text: reaction.emoji ?? "", blockTime: reaction.blockTime)
            }
        }
        return plan.announcement
    }
}
