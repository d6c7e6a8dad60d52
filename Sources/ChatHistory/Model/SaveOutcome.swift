public import ChatTimeline

/// What `ChatHistoryStore.save(_:)` did with a message.
public enum SaveOutcome: Hashable, Sendable {
    /// A new row under the given id.
    case inserted(MessageID)
    /// An existing row (same UUID, or the first UUID seen for the txId) was updated in place.
    case updated(MessageID)
    /// A second row for the same txId was folded into the first UUID's row and deleted.
    case merged(removed: MessageID, into: MessageID)
    /// The same content was already stored.
    case unchanged(MessageID)
    /// Nothing was stored: the conversation was deleted through this message's time (issue 48
    /// item 1), on this device or another.
    case discarded(MessageID)

    /// The surviving row's id.
    public var id: MessageID {
        switch self {
        case .inserted(let id), .updated(let id), .unchanged(let id), .discarded(let id): id
        case .merged(_, let into): into
        }
    }
}
