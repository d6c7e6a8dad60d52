/// Which slice of the conversation a page request asks for.
public enum PageDirection: Hashable, Sendable {
    /// The newest `limit` rows: initial open and jump to bottom after the window left the tail.
    case newest
    /// Rows strictly older than the key (an exclusive keyset cursor).
    case older(than: MessageKey)
    /// Rows strictly newer than the key, to refill below after the memory cap trimmed the tail.
    case newer(than: MessageKey)
}
