/// One line of the conversation list (issue 16 item 2): who, the newest message, how many
/// arrived unread, and whether the peer still waits for our answer to their handshake.
public struct ConversationEntry: Hashable, Sendable {
    /// The peer's Kaspa address text: the conversation id.
    public var address: String
    /// The contact's name (user alias, else KNS name, else a shortened address).
    public var name: String
    public var preview: String?
    /// Newest activity in milliseconds since 1970.
    public var lastActivity: Int64
    public var unread: Int
    public var isMuted: Bool
    /// The peer sent a handshake we have not answered: accept or decline.
    public var isPendingHandshake: Bool

    public init(
        address: String, name: String, preview: String?, lastActivity: Int64, unread: Int = 0, isMuted: Bool = false,
        isPendingHandshake: Bool = false
    ) {
        self.address = address
        self.name = name
        self.preview = preview
        self.lastActivity = lastActivity
        self.unread = unread
        self.isMuted = isMuted
        self.isPendingHandshake = isPendingHandshake
    }
}
