public import ChatHistory
public import Contacts
public import TandemBasics

/// One line of the conversation list: the contact and its newest message.
public struct ConversationSummary: Sendable, Equatable {
    public var contact: Contact
    /// The newest stored row, if any.
    public var lastMessage: StoredMessage?
    /// Incoming messages after the conversation's read mark (issue 16 item 5), kept in the
    /// profile's history so the count survives a restart.
    public var unread: Int
    /// The peer wrote first (the contact was auto-added) and we have sent nothing back: a
    /// handshake to accept or decline. Their handshake is a history row of its own
    /// (kasia-protocol §8), so "no messages yet" no longer tells this apart.
    public var awaitsAnswer: Bool

    public init(contact: Contact, lastMessage: StoredMessage?, unread: Int = 0, awaitsAnswer: Bool = false) {
        self.contact = contact
        self.lastMessage = lastMessage
        self.unread = unread
        self.awaitsAnswer = awaitsAnswer
    }

    /// What the list sorts by: the newest message's time, else the contact's `lastMessageAt`,
    /// else when it was added.
    public var lastActivity: UnixMillis {
        if let lastMessage {
            return max(UnixMillis(Int64(clamping: lastMessage.blockTime)), contact.lastMessageAt ?? contact.addedAt)
        }
        return contact.lastMessageAt ?? contact.addedAt
    }
}
