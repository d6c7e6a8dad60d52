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
    /// The network and, over Kaspa, the balance the title shows (issue 51 item 4).
    case account(ChatScreen.Account)
}

extension ScreenUpdate {
    /// What the shell posts when a queued row comes back from the relay as `sent`. When the
    /// relay's own copy reached the history first, its UUID won the tx id and the queued row was
    /// folded into it (kasia-protocol §9): the queued row is posted again under that tx id, so
    /// the timeline folds the two into one row instead of leaving the pending one beside it.
    public static func delivered(_ sent: StoredMessage, queued: StoredMessage?) -> [ScreenUpdate] {
        guard var promoted = queued, promoted.id != sent.id else { return [.stored(sent, live: false)] }
        promoted.txID = sent.txID
        promoted.blockTime = sent.blockTime
        promoted.status = sent.status
        return [.stored(promoted, live: false), .stored(sent, live: false)]
    }
}

/// The relay connection as the status line shows it.
public enum ConnectionState: Hashable, Sendable {
    case connecting
    case online
    /// The connection broke; the shell retries after a backoff.
    case reconnecting(reason: String)
}
