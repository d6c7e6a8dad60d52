public import ChatHistory

/// What the shell feeds the screen model from the messaging service (issue 16 item 5).
public enum ScreenUpdate: Sendable {
    /// The conversation list, most recent activity first.
    case conversations([ConversationEntry])
    /// A stored row changed or arrived: our own send (pending, sent, failed) or, when `live`, a
    /// message from the peer that counts as unseen while the reader is scrolled up.
    case stored(StoredMessage, live: Bool)
    case connection(ConnectionState)
    /// A one-line message for the status line (an error from an action).
    case notice(String)
}

/// The relay connection as the status line shows it.
public enum ConnectionState: Hashable, Sendable {
    case connecting
    case online
    /// The connection broke; the shell retries after a backoff.
    case reconnecting(reason: String)
}
