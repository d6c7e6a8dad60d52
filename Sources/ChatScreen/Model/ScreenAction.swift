/// What the screen model asks its shell to do with the messaging service (issue 16): the model
/// never performs I/O against the relay; the shell runs these and feeds back a ``ScreenUpdate``.
/// Conversations are named by the peer's Kaspa address text.
public enum ScreenAction: Hashable, Sendable {
    case send(text: String, to: String)
    /// Submit a failed outgoing row again under the same id.
    case retry(messageID: String)
    /// Open a conversation with an address typed by the user (not yet a contact): handshake.
    case startConversation(address: String)
    /// Answer a pending handshake: a response handshake.
    case acceptConversation(address: String)
    /// Decline a pending handshake: the auto-added contact is removed.
    case declineConversation(address: String)
    /// Delete the contact (a tombstone that syncs); its history stays.
    case deleteConversation(address: String)
    case rename(address: String, to: String)
    case setMuted(address: String, muted: Bool)
    /// The user opened a conversation: its unread count is cleared.
    case markRead(address: String)
    case quit
}
