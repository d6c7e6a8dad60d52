import ChatHistory
import KasiaProtocol
import KaspaCrypto
import TandemBasics

/// What one row does to the profile, decided by ``MessageIngest`` and applied by ``Messenger``
/// in this order: the routing state is saved; a stored row is updated; a kept submission under
/// the tx id is promoted (and then nothing else happens); the new row is inserted (when its
/// `tx_id` is stored already, nothing after it happens: the row was seen); a contact is added;
/// the contact's last activity is recorded; the announcement is what `listen` and `sync` return.
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

    init(
        routing: ConversationRoutingState? = nil, changesWatchSet: Bool = false, update: StoredMessage? = nil,
        kept: KeptSubmission? = nil, insert: StoredMessage? = nil, addContact: KaspaAddress? = nil,
        activity: ContactActivity? = nil, announcement: IncomingMessage? = nil
    ) {
        self.routing = routing
        self.changesWatchSet = changesWatchSet
        self.update = update
        self.kept = kept
        self.insert = insert
        self.addContact = addContact
        self.activity = activity
        self.announcement = announcement
    }

    /// A row that is not for us, unreadable, or seen: nothing changes.
    static let nothing = IngestPlan()

    var isNothing: Bool { self == .nothing }
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
