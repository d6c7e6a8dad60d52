import ChatHistory
import KasiaProtocol
import KaspaCrypto
import TandemBasics

/// What one row does to the profile, decided by ``MessageIngest`` and applied by ``Messenger``
/// in this order: the routing state is saved; a stored row is updated; a kept submission under
/// the tx id is promoted (and then nothing else happens); the new row is inserted (when its
/// `tx_id` is stored already, nothing after it happens: the row was seen); a contact is added;
/// the contact's last activity is recorded; a reaction is applied to its target; the
/// announcement is what `listen` and `sync` return.
/// `changesWatchSet` says the routing saved reads or sends on other aliases than before (or is a
/// new conversation): a live session then checks its watched set.
struct IngestPlan: Sendable, Equatable {
    var routing: ConversationRoutingState?
    var changesWatchSet = false
    var update: StoredMessage?
    var kept: KeptSubmission?
    var insert: StoredMessage?
    var addContact: KaspaAddress?
    var activity: ContactActivity?
    var announcement: IncomingMessage?
    /// A KaChat reaction to apply to its target message (issue 43 item 4).
    var reaction: ReactionChange?

    init(
        routing: ConversationRoutingState? = nil, changesWatchSet: Bool = false, update: StoredMessage? = nil,
        kept: KeptSubmission? = nil, insert: StoredMessage? = nil, addContact: KaspaAddress? = nil,
        activity: ContactActivity? = nil, announcement: IncomingMessage? = nil, reaction: ReactionChange? = nil
    ) {
        self.routing = routing
        self.changesWatchSet = changesWatchSet
        self.update = update
        self.kept = kept
        self.insert = insert
        self.addContact = addContact
        self.activity = activity
        self.announcement = announcement
        self.reaction = reaction
    }

    /// Inserts `row`, an incoming row of `sender`'s, and announces it.
    mutating func show(_ row: StoredMessage, text: String, from sender: KaspaAddress) {
        insert = row
        announcement = IncomingMessage(
            kind: row.kind == .payment ? .payment : .text, id: row.id, txID: row.txID?.rawValue ?? "", sender: sender,
            text: text, blockTime: row.blockTime, amountSompi: row.amountSompi,
            verified: row.kind == .payment ? row.isVerifiedPayment : nil)
    }

    /// A row that is not for us, unreadable, or seen: nothing changes.
    static let nothing = IngestPlan()

    var isNothing: Bool { self == .nothing }
}

/// One reaction of `reactor` to the message `target` (``ChatHistoryStore/react``).
struct ReactionChange: Sendable, Equatable {
    var target: String
    var reactor: KaspaAddress
    var emoji: String?
    var txID: String
    var blockTime: UInt64
}

/// Our own message that the transport may have kept unacknowledged under `txID`.
struct KeptSubmission: Sendable, Equatable {
    var txID: String
    var blockTime: UInt64
}

/// A message with `peer` at `at`: the contact's last activity (auto-adding a stranger).
struct ContactActivity: Sendable, Equatable {
    var peer: KaspaAddress
    var at: UnixMillis
}

/// What ``MessageIngest`` asks of the profile's stores; each throws only for a storage failure.
/// Tests answer from dictionaries.
struct IngestLookup {
    /// The conversation's routing state, nil for a peer we have no conversation with.
    var routingState: (KaspaAddress) throws -> ConversationRoutingState?
    /// The history row that owns `txID`, if one is stored.
    var storedMessage: (String) throws -> StoredMessage?
    /// The peer we send to with `alias`.
    var ownAliasPeer: (Alias) throws -> KaspaAddress?
    /// Whether `address` is a contact that is not deleted.
    var isLiveContact: (KaspaAddress) throws -> Bool
}
