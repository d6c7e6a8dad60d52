public import ChatHistory
public import ChatTimeline
public import Contacts
import Foundation
public import KaspaCrypto

/// What an interactive client needs beyond `send` (issue 16 items 2–4): the contact edits of
/// the conversation list.
extension Messenger {
    /// Declines a peer's unanswered handshake: the auto-added contact is removed (a tombstone,
    /// seed 002), so the conversation leaves the list until the peer writes again.
    public func declineConversation(with peer: KaspaAddress) throws {
        try contacts.remove(ContactAddress(peer), wallet: wallet)
    }

    /// Sets the contact's name; an empty name clears it.
    public func renameContact(_ peer: KaspaAddress, to alias: String) throws {
        try contacts.rename(ContactAddress(peer), wallet: wallet, to: alias)
    }

    /// Marks the conversation with `peer` read through its newest incoming message: the read
    /// mark is stored in the profile's history, so the unread count survives a restart (issue
    /// 16 item 5).
    public func markRead(_ peer: KaspaAddress) throws {
        try history.markRead(ConversationID(peer.description))
    }

    /// Mutes or unmutes the contact's notifications.
    public func setMuted(_ peer: KaspaAddress, _ muted: Bool) throws {
        try contacts.setNotificationsMuted(ContactAddress(peer), wallet: wallet, muted)
    }
}

/// The contact edits of `tandem app`'s list (issue 47 item 2), and the row reads a screen redraws
/// from.
extension Messenger {
    /// Adds `peer` as a contact (or re-adds a deleted one) under `alias`, without a handshake.
    public func addContact(_ peer: KaspaAddress, alias: String? = nil) throws {
        try contacts.add(ContactAddress(peer), wallet: wallet, alias: alias)
    }

    /// Deletes the contact (a tombstone that syncs, seed 002); its history stays in the profile.
    public func deleteContact(_ peer: KaspaAddress) throws {
        try contacts.remove(ContactAddress(peer), wallet: wallet)
    }

    /// Deletes the conversation with `peer` (issue 48 item 1): its messages, through the newer of
    /// now and its newest message, and the contact. Both are tombstones that `tandem sync` carries
    /// to the person's other devices; no later read of the chain or the relay brings the deleted
    /// messages back, and a message the peer sends after it starts the conversation again.
    /// Returns how many messages went.
    @discardableResult
    public func deleteConversation(with peer: KaspaAddress) throws -> Int {
        let conversation = ConversationID(peer.description)
        let now = UInt64(max(0, profile.clock.now.rawValue))
        let through = max(now, try history.newestBlockTime(in: conversation) ?? 0)
        let deleted = try history.deleteConversation(conversation, through: through)
        if try liveContact(peer) != nil { try contacts.remove(ContactAddress(peer), wallet: wallet) }
        return deleted
    }

    /// The contact `peer`, if the profile has one (deleted ones are not).
    public func contact(_ peer: KaspaAddress) throws -> Contact? {
        try liveContact(peer)
    }

    /// The stored row `id`, as it is now (after a send, a reaction or a verification).
    public func message(_ id: MessageID) throws -> StoredMessage? {
        try history.message(id)
    }

    /// The stored row of the transaction `txID` (a handshake or a payment just sent), if any.
    public func message(txID: String) throws -> StoredMessage? {
        try history.message(txID: TxID(txID))
    }
}
